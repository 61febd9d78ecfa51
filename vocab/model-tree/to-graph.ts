/**
 * `toGraph`: YAML text → designer graph. Tolerant: a document with syntax errors still yields
 * every node that could be read, plus the errors with their line and column.
 *
 * Shared by the studio (the designer, a version comparison) and the server, which draws the graph
 * of each model version for the run page (`readGraph`, server/api/model-graph.ts).
 *
 * State: the last text and its graph (read-only for every caller), so every reader of one text
 * gets the same graph.
 */
import { buildEdges } from './graph-edges.ts';
import { endNode, graphNodeOf } from './graph-nodes.ts';
import { openSource, parseSource, type OpenedSource } from './source.ts';
import type { DesignerGraph } from '../graph.ts';

let last: { source: string; graph: DesignerGraph } | undefined;

export function toGraph(source: string): DesignerGraph {
  if (last?.source !== source) last = { source, graph: graphOf(openSource(source)) };
  return last.graph;
}

/**
 * The graph of `source` read apart from the shared caches (toGraph's last graph, source.ts's last
 * parses): the server keeps the graphs of many model versions, not their parses.
 */
export function readGraph(source: string): DesignerGraph {
  return graphOf(parseSource(source));
}

function graphOf({ elements, errors, rangeOf }: OpenedSource): DesignerGraph {
  const nodes = elements.map((element) => graphNodeOf(element, rangeOf(element)));
  nodes.push(endNode());
  return { nodes, edges: buildEdges(elements), errors };
}
