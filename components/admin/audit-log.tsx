/**
 * The audit log for admins: newest first, filtered by actor, action, target and a date range, in
 * pages of 25, read again when the `audit` room says an entry was added (live). State: the applied
 * filters (set on submit, back to the first page) and the page offset.
 */
'use client';
import { useState, type FormEvent } from 'react';
import type { ApiInput } from '../data/api-types.ts';
import { liveRoom, useLiveRefetch } from '../data/live.tsx';
import { useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './admin.module.css';

const PAGE = 25;
type Filters = Omit<NonNullable<ApiInput<'audit.query'>>, 'offset' | 'limit'>;

const day = (text: FormDataEntryValue | null, end: boolean): number | undefined => {
  if (!text) return undefined;
  const t = new Date(`${String(text)}T${end ? '23:59:59.999' : '00:00:00'}`).getTime();
  return Number.isNaN(t) ? undefined : t;
};
const text = (v: FormDataEntryValue | null) => (v && String(v).trim() ? String(v).trim() : undefined);

export function AuditLog() {
  const [filters, setFilters] = useState<Filters>({});
  const [offset, setOffset] = useState(0);
  const users = useApiQuery('users.list', {});
  const log = useApiQuery('audit.query', { ...filters, offset, limit: PAGE }, { placeholderData: (prev) => prev });
  useLiveRefetch(liveRoom.audit, null, ['audit.query']);
  const names = new Map((users.data?.rows ?? []).map((u) => [u.id, u.name]));

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setFilters({ actor: text(f.get('actor')), action: text(f.get('action')), target: text(f.get('target')), from: day(f.get('from'), false), to: day(f.get('to'), true) });
    setOffset(0);
  };
  const count = log.data?.count ?? 0;

  return (
    <section className={styles.section} aria-labelledby="audit-title">
      <h2 id="audit-title" className={styles.sectionTitle}>
        Audit log
      </h2>
      <form className={styles.filters} onSubmit={apply} aria-label="Audit filters">
        <div className={styles.field}>
          <label htmlFor="audit-actor">Who</label>
          <select id="audit-actor" name="actor" className={styles.input} defaultValue="">
            <option value="">anyone</option>
            {(users.data?.rows ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        </div>
        <TextField label="Action" name="action" placeholder="e.g. task.complete" />
        <TextField label="Target" name="target" placeholder="a pid, model or user id" />
        <TextField label="From" name="from" type="date" />
        <TextField label="To" name="to" type="date" />
        <Button type="submit" icon="refresh">
          Apply filters
        </Button>
      </form>
      {log.error ? <ErrorNote error={log.error} title="The audit log could not be read" onRetry={() => log.refetch()} /> : null}
      {!log.data && log.isPending ? <Spinner label="Loading the audit log" /> : null}
      {log.data ? (
        <>
          <table className={styles.table} aria-label="Audit entries">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {log.data.rows.map((e) => (
                <tr key={e.id}>
                  <td>{new Date(e.time).toLocaleString()}</td>
                  <td>{e.actor_name || names.get(e.actor) || e.actor}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className={styles.target}>{e.target}</td>
                  <td className={e.result === 'ok' ? undefined : styles.error}>{e.result}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className={styles.pager} aria-label="Audit pages">
            <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Newer
            </Button>
            <span className={styles.muted}>
              {count === 0 ? 'No entries match.' : `${offset + 1}–${Math.min(offset + PAGE, count)} of ${count}`}
            </span>
            <Button size="sm" disabled={offset + PAGE >= count} onClick={() => setOffset(offset + PAGE)}>
              Older
            </Button>
          </nav>
        </>
      ) : null}
    </section>
  );
}
