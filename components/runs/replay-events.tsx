/**
 * The events around the replayed moment: the last `BEFORE` at or before it and the next `AFTER`
 * (task starts and ends, messages, operator actions with who sent them), the ones already
 * happened set apart from the ones to come. A click moves the moment to that event; a subflow
 * act's start links to its child run at the same moment. Says when the history read is cut.
 */
'use client';
import Link from 'next/link';
import { useMemo } from 'react';
import { Icon, type IconName } from '../ui/icons.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import { eventsAround, type HistoryEvent } from '../../vocab/run-history.ts';
import { formatTime } from './format.ts';
import type { RunHistory } from './use-replay.ts';
import runStyles from './run.module.css';
import styles from './replay.module.css';

const BEFORE = 8;
const AFTER = 6;

function describe(event: HistoryEvent): { icon: IconName; text: string; state?: string; tid: string | null } {
  switch (event.kind) {
    case 'start':
      return { icon: 'play', text: `${event.task.kind} ${event.task.name || event.task.key} started`, tid: event.task.tid };
    case 'end':
      return { icon: 'check', text: `${event.task.kind} ${event.task.name || event.task.key} ended`, state: event.state, tid: event.task.tid };
    case 'message':
      return { icon: 'send', text: `message ${event.message.type} ${event.message.name || event.message.key}`, state: event.message.state, tid: event.message.tid };
    case 'action': {
      const { actor, action, keys, result, migration } = event.action;
      const names = keys.length ? ` (${keys.join(', ')})` : '';
      const what = migration ? `moved the run from version ${migration.from} to version ${migration.to}` : `${action}${names}`;
      return { icon: 'person', text: `${actor}: ${what}${result === 'ok' ? '' : ` refused: ${result}`}`, tid: event.action.tid };
    }
  }
}

export interface ReplayEventsProps {
  at: number;
  events: readonly HistoryEvent[];
  history: RunHistory | undefined;
  onSeek: (at: number) => void;
  onSelect: (tid: string) => void;
}

export function ReplayEvents({ at, events, history, onSeek, onSelect }: ReplayEventsProps) {
  const around = useMemo(() => eventsAround(events, at, BEFORE, AFTER), [events, at]);
  const childOf = useMemo(() => new Map((history?.children ?? []).map((c) => [c.tid, c])), [history]);
  const cut = history && (history.messages.count > history.messages.rows.length || history.actions.count > history.actions.rows.length);
  return (
    <section className={`${runStyles.details} ${styles.events}`} aria-label="Events around the moment" data-testid="replay-events">
      <h3>Events around {formatTime(at)}</h3>
      {!history ? <p className={styles.muted}>Reading the messages and actions…</p> : null}
      {cut ? (
        <p className={styles.muted}>
          Showing the first {history.messages.rows.length} of {history.messages.count} messages and the last {history.actions.rows.length} of {history.actions.count} actions.
        </p>
      ) : null}
      <ol>
        {around.events.map((event, i) => {
          const what = describe(event);
          const child = event.kind === 'start' ? childOf.get(event.task.tid) : undefined;
          return (
            <li key={event.key} className={i < around.past ? styles.past : styles.future} data-kind={event.kind} data-key={event.key}>
              <button type="button" className={styles.eventTime} onClick={() => onSeek(event.time)} title="Go to this moment">
                {formatTime(event.time)}
              </button>
              <Icon name={what.icon} size={13} />
              {what.tid ? (
                <button type="button" className={styles.eventText} onClick={() => onSelect(what.tid!)} title="Select this task">
                  {what.text}
                </button>
              ) : (
                <span className={styles.eventText}>{what.text}</span>
              )}
              {what.state ? <StateBadge state={what.state} /> : null}
              {child ? (
                <Link href={`/runs/${encodeURIComponent(child.pid)}?at=${at}`} className={styles.childLink}>
                  subflow run → at this moment
                </Link>
              ) : null}
            </li>
          );
        })}
      </ol>
      {around.events.length === 0 ? <p className={styles.muted}>Nothing happened in this run yet.</p> : null}
    </section>
  );
}
