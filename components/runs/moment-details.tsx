/**
 * The variables at the replayed moment (`history.variables`): the process variables then and,
 * when a task is selected, its state and own data then — derived as docs/replay.md says. Read once
 * the moment has stayed put for `SETTLE_MS` (not on every frame of a drag or of playing). A
 * subflow act links to its child run at the same moment.
 */
'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import { formatTime } from './format.ts';
import { JsonBlock } from './json-block.tsx';
import type { RunStore } from './run-store.ts';
import type { RunHistory } from './use-replay.ts';
import { useRunSlice } from './use-run.ts';
import runStyles from './run.module.css';
import styles from './replay.module.css';

const SETTLE_MS = 250;

function useSettled(value: number): number {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

export interface MomentDetailsProps {
  pid: string;
  at: number;
  /** The replay store (the run at the moment). */
  store: RunStore;
  tid: string | null;
  history: RunHistory | undefined;
}

export function MomentDetails({ pid, at, store, tid, history }: MomentDetailsProps) {
  const settled = useSettled(at);
  const task = useRunSlice(store, (s) => (tid ? s.task(tid) : undefined));
  const read = useApiQuery('history.variables', { pid, at: settled, ...(tid ? { tid } : {}) }, { refetchOnWindowFocus: false, staleTime: Infinity, placeholderData: (previous) => previous });
  const child = tid ? history?.children.find((c) => c.tid === tid) : undefined;
  return (
    <section className={runStyles.details} aria-label="Variables at the moment" data-testid="moment-details">
      <h3>At {formatTime(at)}</h3>
      {tid && task ? (
        <header className={styles.momentTask}>
          <strong>{task.name || task.key}</strong>
          <StateBadge state={task.state} />
        </header>
      ) : tid ? (
        <p className={styles.muted}>The selected task had not started yet.</p>
      ) : (
        <p className={styles.muted}>Select a node to see its own variables then.</p>
      )}
      {child ? (
        <Link href={`/runs/${encodeURIComponent(child.pid)}?at=${at}`} className={styles.childLink} data-testid="child-at-moment">
          Open the subflow run at this moment
        </Link>
      ) : null}
      {read.error ? <ErrorNote error={read.error} title="The variables could not be read" onRetry={() => void read.refetch()} /> : null}
      {!read.data ? (
        <Spinner label="Reading the variables" />
      ) : (
        <div aria-busy={read.isPlaceholderData || settled !== at} className={styles.momentVars}>
          {tid && task ? <JsonBlock title="Its data then" value={read.data.task?.data ?? null} /> : null}
          <JsonBlock title="Process variables then" value={read.data.variables} />
        </div>
      )}
    </section>
  );
}
