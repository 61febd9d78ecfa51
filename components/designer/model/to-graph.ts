/**
 * `toGraph`: YAML text → designer graph. Tolerant: a document with syntax errors still yields
 * every node that could be read, plus the errors with their line and column.
 *
 * State: the last text and its graph (read-only for every caller), so a page may read a big
 * model's graph early (the run page, while its tasks are still on the way) and draw it later.
 */
import { buildEdges } from './graph-edges.ts';
import { endNode, graphNodeOf } from './graph-nodes.ts';
import { openSource } from '../../../vocab/model-tree/source.ts';
import type { DesignerGraph } from '../../../vocab/graph.ts';

let last: { source: string; graph: DesignerGraph } | undefined;

export function toGraph(source: string): DesignerGraph {
  if (last?.source !== source) last = { source, graph: readGraph(source) };
  return last.graph;
}

function readGraph(source: string): DesignerGraph {
  const { elements, errors, rangeOf } = openSource(source);
  const nodes = elements.map((element) => graphNodeOf(element, rangeOf(element)));
  nodes.push(endNode());
  return { nodes, edges: buildEdges(elements), errors };
}
