/**
 * Votes on a run's graph (a child of FlowCanvas on the run page): a badge on each act decided by
 * votes (vocab/quorum.ts) saying where they stand — "1 of 2 approved" — from `inbox.votes`, read
 * every REFRESH_MS while one of them still waits (a vote that decides nothing changes no task
 * state, so the run's live events do not tell it), and again whenever the run's node states
 * change (`version`: a deciding vote closes its act); a new vote also re-reads the task's history. Tasks go
 * to their graph node through the run store's node map; several tasks of one node (a loop) show
 * the latest.
 */
'use client';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiKey } from '../data/query-keys.ts';
import { useApiQuery } from '../data/use-api.ts';
import type { GraphLayout } from '../designer/model/index.ts';
import styles from '../insights/insights.module.css';
import runStyles from './run.module.css';
import { NodeOverlays, OnNode } from '../insights/on-node.tsx';
import { progressText } from '../../vocab/quorum.ts';
import type { RunStore } from './run-store.ts';
import { useRefetchOnChange } from './use-refetch-on-change.ts';

/** How often the votes of a run with a waiting act decided by votes are read again, ms. */
const REFRESH_MS = 2000;

export function VoteBadges({ pid, store, layout, running, version }: { pid: string; store: RunStore; layout: GraphLayout; running: boolean; version: unknown }) {
  const read = useApiQuery('inbox.votes', { pid }, { refetchOnWindowFocus: false, refetchInterval: (q) => (running && q.state.data?.rows.some((r) => r.state === 'interrupted') ? REFRESH_MS : false) });
  useRefetchOnChange(read.refetch, version);
  const queryClient = useQueryClient();
  const counted = (read.data?.rows ?? []).map((r) => `${r.tid}:${r.votes.length}`).join(' ');
  useEffect(() => {
    for (const row of read.data?.rows ?? []) void queryClient.invalidateQueries({ queryKey: apiKey('tasks.history', { pid, tid: row.tid }) });
    // deps: only when the number of votes of some act changed
  }, [counted]);
  const byNode = new Map<string, NonNullable<typeof read.data>['rows'][number]>();
  for (const row of read.data?.rows ?? []) {
    const nodeId = store.nodeOf(row.nid);
    if (nodeId) byNode.set(nodeId, row);
  }
  if (byNode.size === 0) return null;
  return (
    <NodeOverlays>
      {[...byNode].map(([nodeId, row]) => (
        <OnNode key={nodeId} layout={layout} nodeId={nodeId} attributes={{ 'data-testid': `votes-${nodeId}`, 'data-approvals': row.approvals, 'data-need': row.need ?? undefined }}>
          <span className={runStyles.votes}>
            <span className={styles.badge} data-kind="votes" title={row.votes.map((v) => `${v.user} ${v.decision === 'approve' ? 'approved' : 'rejected'}${v.comment ? `: ${v.comment}` : ''}`).join('\n') || 'no votes yet'}>
              {progressText(row)}
            </span>
          </span>
        </OnNode>
      ))}
    </NodeOverlays>
  );
}
