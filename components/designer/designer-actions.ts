/**
 * The designer's commands as edits of the YAML text, choosing where things go from the selected
 * node: an act dropped on a step joins its chain, dropped on an act goes right after it, dropped on
 * a branch or rule joins its last step; a new step goes after the selected step (or at the end).
 */
import { addAct, addBranch, addStep, DesignerEditError, type DesignerGraph, type EditResult, type GraphNode } from './model/index.ts';

/** What a copied act carries (its id is never reused: the pasted act gets a fresh one). */
export interface ActTemplate {
  uses: string;
  name?: string;
  params?: unknown;
  schema?: Record<string, unknown>;
}

const byId = (graph: DesignerGraph, id: string | null | undefined) => (id ? graph.nodes.find((n) => n.id === id) : undefined);

/** The node an act goes into and at which index, for a drop on (or a selection of) `target`. */
function actPlace(graph: DesignerGraph, target: GraphNode | undefined): { parent: string; index?: number } | null {
  if (!target) {
    const last = graph.nodes.filter((n) => n.kind === 'step' && n.parent === 'workflow').at(-1);
    return last ? { parent: last.id } : null;
  }
  if (target.kind === 'step' || target.kind === 'branch' || target.kind === 'catch' || target.kind === 'timeout') return { parent: target.id };
  if (target.kind === 'act' && target.parent && byId(graph, target.parent)?.kind === 'step' && !target.path.endsWith(`setup[${target.index}]`)) {
    return { parent: target.parent, index: target.index + 1 };
  }
  return actPlace(graph, undefined);
}

/** Adds an act of `template.uses` at `targetId` (a step is created first when the workflow has none). */
export function addActAt(source: string, graph: DesignerGraph, targetId: string | null, template: ActTemplate): EditResult {
  const place = actPlace(graph, byId(graph, targetId));
  if (place) return addAct(source, { ...place, ...template });
  const step = addStep(source);
  return addAct(step.source, { parent: step.nodeId, ...template });
}

/** Adds a step after the selected step (in the same list), else at the end of the workflow. */
export function addStepAfter(source: string, graph: DesignerGraph, selectedId: string | null): EditResult {
  let node = byId(graph, selectedId);
  while (node && node.kind !== 'step') node = byId(graph, node.parent);
  if (!node?.parent) return addStep(source);
  return addStep(source, { parent: node.parent, index: node.index + 1 });
}

/** Adds a branch to the selected step (or the step of the selected act). */
export function addBranchTo(source: string, graph: DesignerGraph, selectedId: string | null): EditResult {
  let node = byId(graph, selectedId);
  while (node && node.kind !== 'step') node = byId(graph, node.parent);
  if (!node) throw new DesignerEditError('edit.bad_parent', 'select the step the branch belongs to first');
  return addBranch(source, { step: node.id });
}
