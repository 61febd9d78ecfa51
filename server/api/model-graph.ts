/**
 * The graph of a process's model as the studio draws it (vocab/model-tree/to-graph.ts), for the
 * run page (`processes.graph`): drawn once per model version on the server and sent as JSON, so
 * the browser does not parse the model's YAML — on a 5,000-node model the parse was the largest
 * piece of the run page's own work (~0.3-1 s in a busy browser). Without source ranges (the
 * editor's, not the run page's).
 *
 * State: a WeakMap from compiled workflow (the engine compiles a snapshot once per version,
 * runtime/models.ts) to its graph, dropped with the workflow.
 */
import { readGraph } from '../../vocab/model-tree/to-graph.ts';
import type { DesignerGraph } from '../../vocab/graph.ts';
import type { Workflow } from '../engine/model/types.ts';
import type { Engine } from '../runtime/engine.ts';

const graphs = new WeakMap<Workflow, DesignerGraph>();

/** The graph of `source` without source ranges. */
export function runGraphOf(source: string): DesignerGraph {
  const graph = readGraph(source);
  return { ...graph, nodes: graph.nodes.map(({ range: _range, ...node }) => node) };
}

/** The graph of a process's model snapshot, kept per compiled version (drawn here when the snapshot does not compile). */
export function snapshotGraph(engine: Engine, row: { mid: string; model_ver: number; model: string }): DesignerGraph {
  let workflow: Workflow;
  try {
    workflow = engine.models.snapshot(row.mid, row.model_ver, row.model);
  } catch {
    return runGraphOf(row.model);
  }
  let graph = graphs.get(workflow);
  if (!graph) {
    graph = runGraphOf(row.model);
    graphs.set(workflow, graph);
  }
  return graph;
}
