/**
 * The graph of a process's model as the studio draws it (vocab/model-tree/to-graph.ts), for the
 * run page (`processes.graph`): drawn once per model version on the server and sent as JSON, so
 * the browser does not parse the model's YAML — on a 5,000-node model the parse was the largest
 * piece of the run page's own work (~0.3-1 s in a busy browser). Without source ranges (the
 * editor's, not the run page's). A version deployed through the API is drawn right after the
 * deploy has answered (`drawSoon`), so its first run page does not wait for the drawing (~0.5 s
 * for 5,000 nodes on a busy server, and the page's other reads behind it).
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

/** Draws the graph of version `ver` of `mid` (its source) once the current call has answered; a failure leaves it to the first read. */
export function drawSoon(engine: Engine, mid: string, ver: number, source: string): void {
  setImmediate(() => {
    try {
      snapshotGraph(engine, { mid, model_ver: ver, model: source });
    } catch {
      // drawn (or its error told) on the first read
    }
  });
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
