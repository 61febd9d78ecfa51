/**
 * Backpressure on a run's graph (a child of FlowCanvas on the run page): badges on the nodes whose
 * tasks wait in the runtime (`insights.runBackpressure`) — jobs queued in the run's lane (amber,
 * "in a full lane" when that lane refuses work), an execution held in the overflow outbox (red),
 * deliveries sent and not acknowledged (blue). Read every REFRESH_MS while the run goes on, once
 * when it ended. Tasks go to their graph node through the run store's node map.
 */
'use client';
import { useMemo } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import type { GraphLayout } from '../designer/model/index.ts';
import type { RunStore } from '../runs/run-store.ts';
import styles from './insights.module.css';
import { waitsByNode, type NodeWait } from './node-waits.ts';
import { NodeOverlays, OnNode } from './on-node.tsx';

/** How often a running run's backpressure is read again, ms. */
const REFRESH_MS = 2000;

export function BackpressureBadges({ pid, store, layout, running }: { pid: string; store: RunStore; layout: GraphLayout; running: boolean }) {
  const read = useApiQuery('insights.runBackpressure', { pid }, { refetchInterval: running ? REFRESH_MS : false, refetchOnWindowFocus: false });
  const data = read.data;
  const waits = useMemo(() => (data ? waitsByNode(data.tasks, (nid) => store.nodeOf(nid)) : new Map<string, NodeWait>()), [data, store]);
  if (!data || waits.size === 0) return null;
  const full = data.lane?.full ?? false;
  return (
    <NodeOverlays>
      {[...waits].map(([nodeId, w]) => (
        <OnNode key={nodeId} layout={layout} nodeId={nodeId} attributes={{ 'data-testid': `backpressure-${nodeId}`, 'data-queued': w.queued, 'data-overflow': w.overflow, 'data-unacked': w.unacked, 'data-full': String(full) }}>
          <span className={styles.badges}>
            {w.queued ? (
              <span className={styles.badge} data-kind="queued" title={full ? `the lane of this run is full (${data.lane!.size} of ${data.lane!.capacity} jobs): new work overflows to the outbox` : 'jobs queued in the lane of this run'}>
                {w.queued} queued{full ? ' · full lane' : ''}
              </span>
            ) : null}
            {w.overflow ? (
              <span className={styles.badge} data-kind="overflow" title="refused by a full lane: held in the overflow outbox until the lane has room">
                overflow
              </span>
            ) : null}
            {w.unacked || w.failed ? (
              <span className={styles.badge} data-kind="unacked" title="deliveries sent and not acknowledged (or failed, waiting for a redo)">
                {w.unacked ? `${w.unacked} unacked` : ''}
                {w.unacked && w.failed ? ' · ' : ''}
                {w.failed ? `${w.failed} failed` : ''}
              </span>
            ) : null}
          </span>
        </OnNode>
      ))}
    </NodeOverlays>
  );
}
