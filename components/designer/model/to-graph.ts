/**
 * `toGraph`: YAML text → designer graph. Tolerant: a document with syntax errors still yields
 * every node that could be read, plus the errors with their line and column.
 */
import { buildEdges } from './graph-edges.ts';
import { endNode, graphNodeOf } from './graph-nodes.ts';
import { openSource } from './source.ts';
import type { DesignerGraph } from '../../../vocab/graph.ts';

export function toGraph(source: string): DesignerGraph {
  const { elements, errors, rangeOf } = openSource(source);
  const nodes = elements.map((element) => graphNodeOf(element, rangeOf(element)));
  nodes.push(endNode());
  return { nodes, edges: buildEdges(elements), errors };
}
