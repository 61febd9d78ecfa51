/**
 * The engine's node ids of a process's model by YAML path (`processes.model`), so the run page can
 * put each task on its node of the graph. Kept per parsed workflow: the engine parses a snapshot
 * once per version (runtime/models.ts), so a big model is not parsed again on every read.
 *
 * State: a WeakMap from workflow object to its node ids (dropped with the workflow).
 */
import { parseModel, seededIds, walkWorkflow } from '../engine/model/index.ts';
import type { Workflow } from '../engine/model/types.ts';
import type { Engine } from '../runtime/engine.ts';
import type { ModelNodeId } from '../../vocab/graph.ts';

/**
 * The engine's node id of every step, branch and act, by YAML path. Ids the author left out are
 * generated from a hash of the source (models.ts, `seededIds`), so parsing the snapshot the same
 * way finds the ids the process's tasks carry (parsing generates them; validation changes none, so
 * a text that parses but would not deploy gets its ids all the same: `acts diff` of a draft file).
 */
export function modelNodeIds(source: string): ModelNodeId[] {
  const { workflow } = parseModel(source, { newId: seededIds(source) });
  return workflow ? nodeIdsOf(workflow) : [];
}

/** The node ids of a parsed workflow, kept per workflow object (a snapshot is parsed once per version). */
const idsByWorkflow = new WeakMap<Workflow, ModelNodeId[]>();
function nodeIdsOf(workflow: Workflow): ModelNodeId[] {
  let nodes = idsByWorkflow.get(workflow);
  if (nodes) return nodes;
  nodes = [{ path: '', nid: workflow.id }];
  const add = (node: { id: string }, path: string) => void nodes!.push({ path, nid: node.id });
  walkWorkflow(workflow, { step: add, branch: add, act: add });
  idsByWorkflow.set(workflow, nodes);
  return nodes;
}

/** The node ids of a process's model snapshot: the engine's compiled snapshot (parsed once per version), else a parse here. */
export function snapshotNodeIds(engine: Engine, row: { mid: string; model_ver: number; model: string }): ModelNodeId[] {
  try {
    return nodeIdsOf(engine.models.snapshot(row.mid, row.model_ver, row.model));
  } catch {
    return modelNodeIds(row.model);
  }
}
