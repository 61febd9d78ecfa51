/**
 * The inbox's task list: one button per task (workflow, step, title, waiting time, who else may
 * answer), virtualised — only the rows in view (and the keyboard cursor's row, so focus is never
 * lost) are in the DOM. Rows measure their own height. Scrolling near the end asks for the next
 * page (`onNearEnd`). `ref.focus(key)` scrolls a task into view and focuses it (j/k).
 *
 * State: `pendingFocus` — a task to focus as soon as its row is rendered (after a scroll).
 */
'use client';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { formText } from './form-fields.ts';
import styles from './inbox-list.module.css';
import type { InboxRow } from './use-inbox-list.ts';
import { waited } from './waited.ts';
import { whoAnswers } from './who-answers.ts';
import { escalationText } from '../../vocab/escalations.ts';
import { progressText } from '../../vocab/quorum.ts';

export const taskKey = (row: { pid: string; tid: string }) => `${row.pid}/${row.tid}`;

export interface InboxListHandle {
  /** Scrolls the task into view and focuses its row. */
  focus: (key: string) => void;
}

interface InboxListProps {
  rows: InboxRow[];
  /** How many tasks there are in all (the loaded rows may be fewer). */
  count: number;
  /** The row the keyboard cursor is on (j/k). */
  cursor: string | null;
  /** The row whose form is open. */
  opened: string | null;
  me: string;
  now: number;
  loadingMore: boolean;
  onOpen: (row: InboxRow) => void;
  onFocusRow: (key: string) => void;
  onNearEnd: () => void;
  /** The tasks ticked for a bulk decision. */
  selected: ReadonlySet<string>;
  /** A tick (or untick) of the row at `index`; `range`: shift was held (ticks up to the last one ticked). */
  onSelect: (key: string, index: number, range: boolean) => void;
  ref?: Ref<InboxListHandle>;
}

const ESTIMATED_ROW = 76;
const ROW_GAP = 6;
/** Ask for the next page when the last rendered row is this close to the end of the loaded ones. */
const NEAR_END = 20;

interface TaskRowProps {
  row: InboxRow;
  isCursor: boolean;
  isOpened: boolean;
  me: string;
  now: number;
  onOpen: (row: InboxRow) => void;
  onFocusRow: (key: string) => void;
}

const TaskRow = memo(function TaskRow({ row, isCursor, isOpened, me, now, onOpen, onFocusRow }: TaskRowProps) {
  const key = taskKey(row);
  const step = row.step?.name ?? row.name ?? row.key;
  const { title } = formText(row.params, step);
  return (
    <button
      type="button"
      className={styles.row}
      data-task={key}
      data-cursor={isCursor || undefined}
      aria-current={isOpened ? 'true' : undefined}
      onClick={() => onOpen(row)}
      onFocus={() => onFocusRow(key)}
    >
      <span className={styles.top}>
        <span className={styles.model}>{row.model_name || row.mid}</span>
        <span className={styles.waited} title={new Date(row.start_time).toLocaleString()}>
          <Icon name="clock" size={12} /> {waited(row.start_time, now)}
        </span>
      </span>
      <span className={styles.title}>{title}</span>
      <span className={styles.meta}>
        <span>Step: {step}</span>
        <span>
          <Icon name="person" size={12} /> {whoAnswers(row.assignment, me)}
        </span>
        {row.votes ? <span data-testid="row-votes">{progressText(row.votes)}</span> : null}
        {row.hold?.holder ? <span data-testid="row-holder">{row.hold.holder === me ? 'held by you' : `held by ${row.hold.holder}`}</span> : null}
        {row.escalation ? (
          <span data-testid="row-escalated" className={styles.escalated} title={escalationText(row.escalation)}>
            <Icon name="alert" size={12} /> escalated{row.escalation.count > 1 ? ` ×${row.escalation.count}` : ''}
          </span>
        ) : null}
        {typeof row.due_time === 'number' ? (
          <span data-testid="row-due" className={row.due_time < now ? styles.overdue : undefined} title={new Date(row.due_time).toLocaleString()}>
            {row.due_time < now ? `overdue ${waited(row.due_time, now)}` : `due in ${waited(now, row.due_time)}`}
          </span>
        ) : null}
      </span>
    </button>
  );
});

export function InboxList({ rows, count, cursor, opened, me, now, loadingMore, onOpen, onFocusRow, onNearEnd, selected, onSelect, ref }: InboxListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);
  const cursorIndex = cursor ? rows.findIndex((r) => taskKey(r) === cursor) : -1;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      return cursorIndex < 0 || indexes.includes(cursorIndex) ? indexes : [...indexes, cursorIndex].sort((a, b) => a - b);
    },
    [cursorIndex],
  );
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (i) => taskKey(rows[i]),
    gap: ROW_GAP,
    overscan: 6,
    rangeExtractor,
  });

  const focusPending = () => {
    const key = pendingFocus.current;
    const row = key ? scroller.current?.querySelector<HTMLButtonElement>(`[data-task="${CSS.escape(key)}"]`) : null;
    if (!row) return;
    pendingFocus.current = null;
    row.focus();
  };
  useImperativeHandle(ref, () => ({
    focus: (key) => {
      const index = rows.findIndex((r) => taskKey(r) === key);
      if (index < 0) return;
      pendingFocus.current = key;
      virtual.scrollToIndex(index, { align: 'auto' });
      focusPending();
    },
  }));
  // a row asked for before it was rendered is focused once it is
  useEffect(focusPending);

  const items = virtual.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (lastIndex >= rows.length - NEAR_END) onNearEnd();
  }, [lastIndex, rows.length, onNearEnd]);

  return (
    <div ref={scroller} className={styles.scroller} data-testid="inbox-scroller">
      <ul className={styles.list} aria-label="Tasks waiting for you" style={{ height: virtual.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index];
          const key = taskKey(row);
          return (
            <li key={item.key} ref={virtual.measureElement} data-index={item.index} aria-setsize={count} aria-posinset={item.index + 1} className={styles.item} style={{ transform: `translateY(${item.start}px)` }}>
              <input
                type="checkbox"
                className={styles.tick}
                checked={selected.has(key)}
                aria-label={`Select ${formText(row.params, row.step?.name ?? row.name ?? row.key).title}`}
                onChange={() => undefined}
                onClick={(e) => onSelect(key, item.index, e.shiftKey)}
              />
              <TaskRow row={row} isCursor={cursor === key} isOpened={opened === key} me={me} now={now} onOpen={onOpen} onFocusRow={onFocusRow} />
            </li>
          );
        })}
      </ul>
      {loadingMore ? <Spinner label="Loading older tasks" /> : null}
    </div>
  );
}
