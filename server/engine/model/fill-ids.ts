/**
 * Fills the ids a document left out (spec 1.1) and defaults every act `key` to its act id.
 * Generated ids never collide with the ids the author wrote.
 */
import { newId as randomId, NODE_ID_LENGTH, WORKFLOW_ID_LENGTH, type IdSource } from './ids.ts';
import type { Workflow } from './types.ts';
import { walkWorkflow } from './walk.ts';

/** Attempts at drawing an unused id before accepting a clash (only a broken id source gets there). */
const MAX_DRAWS = 100;

export interface FillIdsOptions {
  newId?: IdSource;
  /** Also generate the workflow id when it is missing (off for documents that will be deployed). */
  workflowId?: boolean;
}

export function fillIds(workflow: Workflow, options: FillIdsOptions = {}): void {
  const source = options.newId ?? randomId;
  const taken = new Set<string>();
  const nodes: { id: string }[] = [];
  const collect = (node: { id: string }) => {
    if (node.id) taken.add(node.id);
    else nodes.push(node);
  };
  walkWorkflow(workflow, { step: collect, branch: collect, act: collect, trigger: (t) => t.id && taken.add(t.id) });
  if (workflow.id) taken.add(workflow.id);

  const draw = (length: number) => {
    let id = source(length);
    for (let i = 1; i < MAX_DRAWS && taken.has(id); i++) id = source(length);
    taken.add(id);
    return id;
  };
  if (!workflow.id && options.workflowId) workflow.id = draw(WORKFLOW_ID_LENGTH);
  for (const node of nodes) node.id = draw(NODE_ID_LENGTH);
  walkWorkflow(workflow, {
    act(act) {
      if (!act.key) act.key = act.id;
    },
  });
}
