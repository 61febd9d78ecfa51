/**
 * Previews of graph edits: the graph an edit will give, known without writing and parsing its
 * text, so the canvas can draw it at once (pending-edits.ts). Null when the graph cannot be told
 * beforehand; the edit is then applied and parsed before anything is drawn.
 */
import type { DesignerGraph } from '../../../vocab/graph.ts';

/**
 * `graph` with node `nodeId` named `name` (`''`: the name removed, as `rename` does): its label is
 * the name, else its id (graph-nodes.ts) — null for a node without an id losing its name (its
 * label would come from fields the graph does not keep) or a node the graph does not have.
 */
export function renamedGraph(graph: DesignerGraph, nodeId: string, name: string): DesignerGraph | null {
  const at = graph.nodes.findIndex((n) => n.id === nodeId);
  const node = graph.nodes[at];
  const label = name || node?.elementId;
  if (!node || label === undefined) return null;
  if (label === node.label) return graph;
  const nodes = [...graph.nodes];
  nodes[at] = { ...node, label };
  return { ...graph, nodes };
}
