/**
 * One trigger in the schedules table, with its own actions: enable/disable (designers) and fire
 * now (operators). State: each action's mutation (idle → pending → done | refused, shown in the row); the switch shows the
 * asked-for state until the list read has it (or the change failed).
 */
'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { useMe } from '../data/auth.ts';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import styles from './schedules.module.css';
import { when } from './when.ts';

export type TriggerRowData = ApiOutput<'triggers.list'>['rows'][number];
export type Outcome = ApiOutput<'triggers.outcomes'>['rows'][number];

export function TriggerRow({ row, outcome, now }: { row: TriggerRowData; outcome?: Outcome; now: number }) {
  const me = useMe();
  const refresh = { invalidates: ['triggers.list', 'triggers.outcomes'] } as const;
  const toggle = useApiMutation('triggers.setEnabled', { invalidates: [...refresh.invalidates] });
  const fire = useApiMutation('triggers.fire', { invalidates: [...refresh.invalidates] });
  const label = row.name || row.id;
  // from a click until the list read shows it, the switch shows what was asked for (null: the read's value)
  const [asked, setAsked] = useState<boolean | null>(null);
  useEffect(() => {
    if (asked === row.enabled || toggle.isError) setAsked(null);
  }, [asked, row.enabled, toggle.isError]);
  const enabled = asked ?? row.enabled;
  const next = when(row.enabled ? row.next_run : 0, now);
  const last = when(row.last_run, now);
  const started = fire.data && typeof (fire.data as { pid?: unknown }).pid === 'string' ? (fire.data as { pid: string }).pid : null;
  const error = toggle.error ?? fire.error;
  return (
    <>
      <tr data-trigger={row.id} className={outcome?.failing ? styles.failing : undefined}>
        <th scope="row">
          <span className={styles.name}>{label}</span>
          <span className={styles.sub}>
            <Link href={`/models/${encodeURIComponent(row.mid)}`}>{row.mid}</Link> · {row.kind}
          </span>
        </th>
        <td>{row.cron ? <code>{row.cron}</code> : '—'}</td>
        <td>{row.timezone ?? (row.cron ? 'server time' : '—')}</td>
        <td title={next.full}>{row.kind === 'schedule' ? (row.enabled ? next.text : 'disabled') : '—'}</td>
        <td title={last.full}>
          {last.text}
          {outcome?.lastRun ? (
            <Link href={`/runs/${encodeURIComponent(outcome.lastRun.pid)}`} className={styles.outcome} aria-label={`Last run ${outcome.lastRun.state}`}>
              <StateBadge state={outcome.lastRun.state} compact />
            </Link>
          ) : null}
          {outcome?.failing ? <span className={styles.reason}>Failing: {outcome.reason}</span> : null}
        </td>
        <td>
          {me.can('design') ? (
            <label className={styles.switch}>
              <input type="checkbox" role="switch" checked={enabled} disabled={toggle.isPending} onChange={(e) => {
                  setAsked(e.target.checked);
                  toggle.mutate({ id: row.id, enabled: e.target.checked });
                }} aria-label={`Enabled: ${label}`} />
              <span>{enabled ? 'On' : 'Off'}</span>
            </label>
          ) : (
            <span>{row.enabled ? 'On' : 'Off'}</span>
          )}
        </td>
        <td>
          <div className={styles.actions}>
          {me.can('operate') ? (
            <Button size="sm" icon="play" busy={fire.isPending} onClick={() => fire.mutate({ id: row.id })} aria-label={`Fire ${label} now`}>
              Fire now
            </Button>
          ) : null}
          {started ? (
            <span role="status" className={styles.started}>
              Started <Link href={`/runs/${encodeURIComponent(started)}`}>{started}</Link>
            </span>
          ) : null}
          </div>
        </td>
      </tr>
      {error ? (
        <tr>
          <td colSpan={7}>
            <ErrorNote error={error} title={toggle.error ? 'The trigger could not be changed' : 'The trigger could not be fired'} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
