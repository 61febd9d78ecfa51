/**
 * The run's timeline: every task (at its start) and every message, oldest first, virtualised so
 * 10,000 tasks keep only the visible rows in the DOM. Rows are memoised on their entry, which the
 * store replaces only when that task or message changes, so a live update renders one row; the
 * duration of a task that has not ended ticks each second (duration.tsx).
 *
 * State: the filter (all / tasks / messages / errors); the selection belongs to the page.
 */
'use client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useId, useMemo, useRef, useState } from 'react';
import { Icon } from '../ui/icons.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import { isTerminalName } from '../../vocab/states.ts';
import { Duration } from './duration.tsx';
import { useExternalPackages, workerAware } from './external-acts.ts';
import { formatTime } from './format.ts';
import { failed, shownState, type RunStore, type TimelineEntry } from './run-store.ts';
import styles from './run.module.css';
import { useRunSlice } from './use-run.ts';

type Filter = 'all' | 'tasks' | 'messages' | 'errors';

const FILTERS: Record<Filter, { label: string; keep: (e: TimelineEntry) => boolean }> = {
  all: { label: 'Tasks and messages', keep: () => true },
  tasks: { label: 'Tasks', keep: (e) => e.kind === 'task' },
  messages: { label: 'Messages', keep: (e) => e.kind === 'message' },
  errors: { label: 'Errors', keep: (e) => (e.kind === 'task' ? failed(e.task) : e.message.state === 'error') },
};

const ROW_HEIGHT = 34;

const TimelineRow = memo(function TimelineRow({ entry, top, selected, onSelect, external }: { entry: TimelineEntry; top: number; selected: boolean; onSelect: (tid: string) => void; external: ReadonlySet<string> }) {
  const tid = entry.kind === 'task' ? entry.task.tid : entry.message.tid;
  const text =
    entry.kind === 'task'
      ? { icon: 'play' as const, what: entry.task.kind, name: entry.task.name || entry.task.key, state: workerAware(shownState(entry.task), entry.task.uses, external) }
      : { icon: 'send' as const, what: `message ${entry.message.type}`, name: entry.message.name || entry.message.key, state: entry.message.state };
  return (
    <button
      type="button"
      className={`${styles.tlRow} ${selected ? styles.tlSelected : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      aria-pressed={selected}
      onClick={() => onSelect(tid)}
      data-key={entry.key}
      data-state={text.state}
    >
      <span className={styles.mono}>{formatTime(entry.time)}</span>
      <span className={styles.tlWhat}>
        <Icon name={text.icon} size={13} />
        {text.what}
      </span>
      <span className={styles.tlName}>{text.name}</span>
      <StateBadge state={text.state} />
      <span className={styles.muted}>{entry.kind === 'task' ? <Duration start={entry.task.start_time} end={entry.task.end_time} running={!isTerminalName(entry.task.state)} /> : ''}</span>
    </button>
  );
});

export function RunTimeline({ store, selectedTid, onSelect }: { store: RunStore; selectedTid: string | null; onSelect: (tid: string) => void }) {
  const [filter, setFilter] = useState<Filter>('all');
  const timeline = useRunSlice(store, (s) => s.timeline);
  const external = useExternalPackages();
  const rows = useMemo(() => (filter === 'all' ? timeline : timeline.filter(FILTERS[filter].keep)), [timeline, filter]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10, getItemKey: (i) => rows[i].key });
  const selectId = useId();
  return (
    <section className={styles.timeline} aria-label="Timeline" data-testid="run-timeline">
      <header className={styles.panelHead}>
        <h3>Timeline</h3>
        <span className={styles.muted} data-testid="timeline-count">
          {rows.length} {rows.length === 1 ? 'entry' : 'entries'}
        </span>
        <label htmlFor={selectId} className="visually-hidden">
          Show
        </label>
        <select id={selectId} value={filter} onChange={(e) => setFilter(e.target.value as Filter)} className={styles.select}>
          {(Object.keys(FILTERS) as Filter[]).map((f) => (
            <option key={f} value={f}>
              {FILTERS[f].label}
            </option>
          ))}
        </select>
      </header>
      <div ref={scroller} className={styles.tlBody}>
        {rows.length === 0 ? (
          <p className={styles.muted}>Nothing here yet.</p>
        ) : (
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((item) => {
              const entry = rows[item.index];
              const tid = entry.kind === 'task' ? entry.task.tid : entry.message.tid;
              return <TimelineRow key={item.key} entry={entry} top={item.start} selected={entry.kind === 'task' && tid === selectedTid} onSelect={onSelect} external={external} />;
            })}
          </div>
        )}
      </div>
    </section>
  );
}
