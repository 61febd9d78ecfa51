/**
 * The graphs of a version comparison, from the two versions' graphs (`toGraph`) and their
 * structural diff (vocab/model-diff), whose keys are the graphs' node ids:
 *
 * - side by side: each version's own graph, the old one marked removed / changed / moved, the new
 *   one added / changed / moved;
 * - overlay: the new graph with every removed node drawn from the old one (and the old edges that
 *   reach it), in the diff's order — a removed node right after the node that preceded it — so the
 *   layout puts it where it was.
 */
import type { DesignerGraph, GraphEdge, GraphNode } from '../../vocab/graph.ts';
import type { ModelDiff } from '../../vocab/model-diff/index.ts';
import type { DiffMark } from '../graph/index.ts';

export type Marks = Readonly<Record<string, DiffMark>>;

export interface ComparisonGraphs {
  before: DesignerGraph;
  after: DesignerGraph;
  overlay: DesignerGraph;
  marks: { before: Marks; after: Marks; overlay: Marks };
}

function marksOf(diff: ModelDiff, shown: ReadonlySet<DiffMark>): Record<string, DiffMark> {
  const marks: Record<string, DiffMark> = {};
  for (const change of diff.changes) if (change.status !== 'unchanged' && shown.has(change.status)) marks[change.key] = change.status;
  return marks;
}

const OLD_SIDE = new Set<DiffMark>(['removed', 'changed', 'moved']);
const NEW_SIDE = new Set<DiffMark>(['added', 'changed', 'moved']);
const BOTH = new Set<DiffMark>(['added', 'removed', 'changed', 'moved']);

/** The new graph with the removed nodes of the old one put back where they were. */
function overlayOf(before: DesignerGraph, after: DesignerGraph, diff: ModelDiff): DesignerGraph {
  const oldNodes = new Map(before.nodes.map((n) => [n.id, n]));
  const newNodes = new Map(after.nodes.map((n) => [n.id, n]));
  const nodes: GraphNode[] = [];
  const placed = new Set<string>();
  const place = (node: GraphNode | undefined) => {
    if (!node || placed.has(node.id)) return;
    nodes.push(node);
    placed.add(node.id);
  };
  for (const change of diff.changes) place(change.status === 'removed' ? oldNodes.get(change.key) : newNodes.get(change.key));
  after.nodes.forEach(place);
  const removed = new Set(diff.changes.filter((c) => c.status === 'removed').map((c) => c.key));
  const edgeIds = new Set(after.edges.map((e) => e.id));
  const ghostEdges = before.edges.filter(
    (e: GraphEdge) => (removed.has(e.source) || removed.has(e.target)) && placed.has(e.source) && placed.has(e.target) && !edgeIds.has(e.id),
  );
  return { nodes, edges: [...after.edges, ...ghostEdges], errors: after.errors };
}

export function comparisonGraphs(before: DesignerGraph, after: DesignerGraph, diff: ModelDiff): ComparisonGraphs {
  return {
    before,
    after,
    overlay: overlayOf(before, after, diff),
    marks: { before: marksOf(diff, OLD_SIDE), after: marksOf(diff, NEW_SIDE), overlay: marksOf(diff, BOTH) },
  };
}
