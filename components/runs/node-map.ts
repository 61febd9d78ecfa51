/**
 * Which graph node a task lights up. The designer graph (`toGraph`) names nodes by YAML id or path
 * (`step:manager`, `step:pay/acts[0]`, `steps[0].acts[1]`); the engine names them by YAML id, or by
 * an id generated from a hash of the source when the author left it out. `processes.graph` returns
 * the engine id of every YAML path, and every graph node carries its YAML path, so the mapping is
 * path → engine id → graph node:
 *
 * - a step, branch or act with a YAML `id` has `nid === id` (graph node `<kind>:<id>`);
 * - an element without one has the generated id the server reports for its path;
 * - the workflow's task (`tid` `$`) has the model id as `nid` and maps to the `workflow` node;
 * - tasks of nodes built at run time (block/parallel/sequence expansions, pushed acts) have no
 *   graph node: they show in the timeline only, and their expanding act carries the colour;
 * - several tasks of one node (a `next` loop): the node shows the state of its latest task.
 *
 * State: the last map `nodeMapOf` made and what from (read-only for every caller).
 */
import type { DesignerGraph, ModelNodeId } from '../../vocab/graph.ts';

/** The last map made by `nodeMapOf` and what it was made from. */
let last: { graph: DesignerGraph; nodes: readonly ModelNodeId[]; map: ReadonlyMap<string, string> } | undefined;

/** `graphNodeByNid`, the same map object again for the same graph and node ids (the run page asks early, and again when it draws). */
export function nodeMapOf(graph: DesignerGraph, nodes: readonly ModelNodeId[]): ReadonlyMap<string, string> {
  if (last?.graph !== graph || last.nodes !== nodes) last = { graph, nodes, map: graphNodeByNid(graph, nodes) };
  return last.map;
}

/** Graph node id by engine node id (`nid`), from the engine node id of each YAML path (`processes.graph`'s `nodes`). */
export function graphNodeByNid(graph: DesignerGraph, nodes: readonly ModelNodeId[]): Map<string, string> {
  const nidByPath = new Map(nodes.map((n) => [n.path, n.nid]));
  const byNid = new Map<string, string>();
  for (const node of graph.nodes) {
    if (node.kind === 'end' || node.kind === 'catch' || node.kind === 'timeout' || node.kind === 'trigger') continue;
    const nid = nidByPath.get(node.path);
    if (nid !== undefined && !byNid.has(nid)) byNid.set(nid, node.id);
  }
  return byNid;
}

/** What deciding a node's state needs of a task. */
export interface NodeTask {
  tid: string;
  nid: string;
  state: string;
  start_time: number;
}

/** True when `candidate` is the task a node should show instead of `current` (the latest started wins; ties go to the newer event). */
export function isNewerTask(candidate: NodeTask, current: NodeTask | undefined): boolean {
  return current === undefined || candidate.tid === current.tid || candidate.start_time >= current.start_time;
}
