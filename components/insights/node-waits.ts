/**
 * What waits in the runtime at each graph node of a run: the tasks of `insights.runBackpressure`
 * added up per graph node (a loop's tasks share their node).
 */

/** What waits at one graph node. */
export interface NodeWait {
  queued: number;
  overflow: number;
  unacked: number;
  failed: number;
}

export interface TaskWait {
  nid: string;
  queued: readonly string[];
  overflow: boolean;
  unacked: number;
  failed: number;
}

/** The waits of a run's tasks added up per graph node (`nodeOf`: graph node of an engine node id). */
export function waitsByNode(tasks: readonly TaskWait[], nodeOf: (nid: string) => string | undefined): Map<string, NodeWait> {
  const byNode = new Map<string, NodeWait>();
  for (const task of tasks) {
    const nodeId = nodeOf(task.nid);
    if (nodeId === undefined) continue;
    const wait = byNode.get(nodeId) ?? { queued: 0, overflow: 0, unacked: 0, failed: 0 };
    wait.queued += task.queued.length;
    wait.overflow += task.overflow ? 1 : 0;
    wait.unacked += task.unacked;
    wait.failed += task.failed;
    byNode.set(nodeId, wait);
  }
  return byNode;
}
