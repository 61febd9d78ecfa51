/**
 * The runs of one page as a virtualised grid (only the visible rows are in the DOM): state badge
 * (with a Stuck badge beside a compact one when nothing can move the run), workflow, run id,
 * start, duration and error; the sortable columns are buttons in their headers. With a
 * `selection` (operators: bulk actions) each row's state cell starts with a checkbox, and the
 * header's with one for the whole page.
 */
'use client';
import Link from 'next/link';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { StateBadge } from '../ui/state-badge.tsx';
import { errorReason, formatDateTime, formatDuration, runStateLabel } from './format.ts';
import styles from './runs.module.css';
import { StuckBadge } from './stuck-badge.tsx';

export type RunRow = ApiOutput<'processes.list'>['rows'][number];
export type SortField = 'start_time' | 'end_time' | 'state' | 'name';
export interface Sort {
  field: SortField;
  order: 'asc' | 'desc';
}

const ROW_HEIGHT = 44;

/** Picking rows for a bulk action (bulk-selection.ts). */
export interface RowSelection {
  has(pid: string): boolean;
  toggle(pid: string): void;
  /** How many rows of the page are picked. */
  page: 'none' | 'some' | 'all';
  togglePage(): void;
}

function PageCheckbox({ selection }: { selection: RowSelection }) {
  return (
    <input
      type="checkbox"
      aria-label="Select the runs of this page"
      checked={selection.page === 'all'}
      ref={(box) => {
        if (box) box.indeterminate = selection.page === 'some';
      }}
      onChange={selection.togglePage}
    />
  );
}

function SortHeader({ field, label, sort, onSort }: { field: SortField; label: string; sort: Sort; onSort: (s: Sort) => void }) {
  const active = sort.field === field;
  const next: Sort = { field, order: active && sort.order === 'desc' ? 'asc' : 'desc' };
  return (
    <div role="columnheader" aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className={styles.sortButton} onClick={() => onSort(next)}>
        {label}
        <span aria-hidden="true">{active ? (sort.order === 'asc' ? ' ↑' : ' ↓') : ''}</span>
      </button>
    </div>
  );
}

const RunRowView = memo(function RunRowView({ run, top, selected, onToggle }: { run: RunRow; top: number; selected?: boolean; onToggle?: (pid: string) => void }) {
  return (
    <div role="row" className={styles.row} style={{ transform: `translateY(${top}px)` }} data-pid={run.pid} data-state={run.state} data-outcome={run.outcome ?? undefined} data-stuck={run.stuck_since > 0 || undefined}>
      <div role="cell" className={styles.stateCell}>
        {onToggle ? <input type="checkbox" aria-label={`Select run ${run.pid}`} checked={selected ?? false} onChange={() => onToggle(run.pid)} /> : null}
        {run.stuck_since > 0 ? (
          <>
            <StateBadge state={run.state} label={runStateLabel(run)} compact />
            <StuckBadge since={run.stuck_since} />
          </>
        ) : (
          <StateBadge state={run.state} label={runStateLabel(run)} />
        )}
      </div>
      <div role="cell" className={styles.name}>
        <Link href={`/runs/${encodeURIComponent(run.pid)}`}>{run.name || run.mid}</Link>
        <span className={styles.muted}>
          {run.mid} v{run.model_ver}
        </span>
      </div>
      <div role="cell" className={styles.mono}>
        {run.pid}
      </div>
      <div role="cell">{formatDateTime(run.start_time)}</div>
      <div role="cell">{formatDuration(run.start_time, run.end_time)}</div>
      <div role="cell" className={styles.err} title={errorReason(run.err)}>
        {errorReason(run.err)}
      </div>
    </div>
  );
});

export function RunsTable({ rows, sort, onSort, selection }: { rows: readonly RunRow[]; sort: Sort; onSort: (s: Sort) => void; selection?: RowSelection }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8, getItemKey: (i) => rows[i].pid });
  return (
    <div role="table" aria-label="Runs" aria-rowcount={rows.length + 1} className={styles.table}>
      <div role="rowgroup">
        <div role="row" className={`${styles.row} ${styles.head}`}>
          {selection ? (
            <div className={styles.stateCell}>
              <PageCheckbox selection={selection} />
              <SortHeader field="state" label="State" sort={sort} onSort={onSort} />
            </div>
          ) : (
            <SortHeader field="state" label="State" sort={sort} onSort={onSort} />
          )}
          <SortHeader field="name" label="Workflow" sort={sort} onSort={onSort} />
          <div role="columnheader">Run</div>
          <SortHeader field="start_time" label="Started" sort={sort} onSort={onSort} />
          <SortHeader field="end_time" label="Duration" sort={sort} onSort={onSort} />
          <div role="columnheader">Error</div>
        </div>
      </div>
      <div role="rowgroup" ref={scroller} className={styles.body}>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => (
            <RunRowView key={item.key} run={rows[item.index]} top={item.start} selected={selection?.has(rows[item.index].pid)} onToggle={selection?.toggle} />
          ))}
        </div>
      </div>
    </div>
  );
}
