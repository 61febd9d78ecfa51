/**
 * The operator's inbox: the live task list of one view (tabs: mine, my groups', all) on the left, the open task's form beside it, and the
 * user's own withdrawable approvals below. State: `view`, `cursor` (the row j/k is on), `opened` (the
 * task whose form shows; it stays open when the task leaves the list, so the form can say it was
 * answered elsewhere), `gone` (bumped on a live removal of the opened task), `request` (a/r/b
 * pressed), and `done` (the last decision, announced). After a decision the next task opens.
 */
'use client';
import { useCallback, useRef, useState } from 'react';
import { useMe } from '../data/auth.ts';
import { EmptyState } from '../ui/empty-state.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { ApprovalsPanel } from './approvals-panel.tsx';
import { InboxList, taskKey, type InboxListHandle } from './inbox-list.tsx';
import { NotifyButton } from './notify-button.tsx';
import styles from './inbox-view.module.css';
import { TaskForm, type FormRequest } from './task-form.tsx';
import { useInboxKeys } from './use-inbox-keys.ts';
import { useInboxList, type InboxRow } from './use-inbox-list.ts';
import { useNow } from './use-now.ts';
import { InboxTabs } from './inbox-tabs.tsx';
import { BulkDecisionBar } from './bulk-decision-bar.tsx';
import { useTaskSelection } from './use-task-selection.ts';
import type { InboxOrderChoice, InboxView } from '../../vocab/inbox-views.ts';
import { ACTION_DONE, type TaskAction } from './use-task-action.ts';

type Target = { pid: string; tid: string };

export function InboxView() {
  const me = useMe().caller?.name ?? '';
  const now = useNow();
  const [cursor, setCursor] = useState<string | null>(null);
  const [opened, setOpened] = useState<Target | null>(null);
  const [gone, setGone] = useState(0);
  const [request, setRequest] = useState<FormRequest | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [view, setView] = useState<InboxView>('all');
  const [order, setOrder] = useState<InboxOrderChoice>('newest');
  const openedKey = opened ? taskKey(opened) : null;
  const listRef = useRef<InboxListHandle>(null);

  const { list, rows, count, loadMore, loadingMore, liveError } = useInboxList(view, order, (pid, tid) => {
    if (openedKey === taskKey({ pid, tid })) setGone((n) => n + 1);
  });

  const selection = useTaskSelection(rows);

  const open = useCallback((row: Target) => {
    setOpened({ pid: row.pid, tid: row.tid });
    setCursor(taskKey(row));
    setDone(null);
  }, []);
  const focusRow = (key: string) => listRef.current?.focus(key);
  const position = rows.findIndex((r) => taskKey(r) === (cursor ?? openedKey));

  useInboxKeys({
    move: (delta) => {
      if (rows.length === 0) return;
      const next = rows[Math.min(rows.length - 1, Math.max(0, position < 0 ? 0 : position + delta))];
      setCursor(taskKey(next));
      focusRow(taskKey(next));
    },
    open: () => {
      const row = rows[position < 0 ? 0 : position];
      if (row) open(row);
    },
    decide: (kind) => opened && setRequest((r) => ({ kind, n: (r?.n ?? 0) + 1 })),
  });

  const onDone = (action: TaskAction, title: string) => {
    const rest = rows.filter((r) => taskKey(r) !== openedKey);
    const next: InboxRow | undefined = rest[Math.min(Math.max(position, 0), rest.length - 1)];
    setDone(`${ACTION_DONE[action]}: ${title}`);
    setOpened(next ? { pid: next.pid, tid: next.tid } : null);
    setCursor(next ? taskKey(next) : null);
  };

  if (list.error) return <ErrorNote error={list.error} title="The inbox could not be read" onRetry={() => list.refetch()} />;
  if (!list.data) return <Spinner label="Loading your tasks" />;

  return (
    <div className={styles.layout}>
      <div className={styles.column}>
        <InboxTabs view={view} onView={setView} order={order} onOrder={setOrder} />
        <p className={styles.count} aria-live="polite">
          {count === 1 ? '1 task waits for you' : `${count} tasks wait for you`}
          <span className={styles.keys}>
            <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>a</kbd> approve · <kbd>r</kbd> reject · <kbd>b</kbd> send back
          </span>
          <NotifyButton />
        </p>
        {liveError ? <ErrorNote error={liveError} title="Live updates are off" /> : null}
        <BulkDecisionBar tasks={selection.tasks} onClear={selection.clear} />
        {rows.length === 0 ? (
          <EmptyState icon="inbox" title="Nothing waits for you">
            New tasks appear here by themselves as workflows reach a step that needs you.
          </EmptyState>
        ) : (
          <InboxList
            ref={listRef}
            rows={rows}
            count={count}
            cursor={cursor}
            opened={openedKey}
            me={me}
            now={now}
            loadingMore={loadingMore}
            onOpen={open}
            onFocusRow={setCursor}
            onNearEnd={loadMore}
            selected={selection.selected}
            onSelect={selection.select}
          />
        )}
        <ApprovalsPanel now={now} />
      </div>
      <div className={styles.column}>
        <p role="status" className={styles.done}>
          {done}
        </p>
        {opened ? (
          <TaskForm key={openedKey} pid={opened.pid} tid={opened.tid} me={me} now={now} gone={gone} request={request} onDone={onDone} />
        ) : rows.length > 0 ? (
          <EmptyState icon="info" title="Open a task">
            Choose a task on the left, or press <kbd>j</kbd> and <kbd>Enter</kbd>.
          </EmptyState>
        ) : null}
      </div>
    </div>
  );
}
