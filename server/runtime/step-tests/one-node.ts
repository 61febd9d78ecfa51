/**
 * The workflow a step test runs: only the chosen node of a model. A step keeps its acts, branches,
 * setup, catches and timeouts but loses its `next` (the steps it would jump to are not there); an
 * act is wrapped in a step of its own and loses its hook event (`on:`), so a setup hook runs as a
 * plain act. The model's env comes along; its triggers, setup hooks, outputs and input schema do
 * not. The test's inputs are the workflow's input defaults, i.e. the process variables the node sees.
 */
import { ActError } from '../../engine/errors.ts';
import { parseModel, walkWorkflow, type Act, type Step, type Vars, type Workflow } from '../../engine/model/index.ts';

export interface OneNode {
  /** The node's id in the model (an act named by its key resolves to its id). */
  nid: string;
  kind: 'step' | 'act';
  /** The generated workflow, as JSON (deployable source). */
  source: string;
  mid: string;
}

function findNode(workflow: Workflow, ref: string): { kind: 'step'; step: Step } | { kind: 'act'; act: Act } {
  const steps: Step[] = [];
  const byId: Act[] = [];
  const byKey: Act[] = [];
  walkWorkflow(workflow, {
    step: (s) => s.id === ref && steps.push(s),
    act: (a) => (a.id === ref ? byId.push(a) : a.key === ref && byKey.push(a)),
  });
  if (steps.length) return { kind: 'step', step: steps[0] };
  if (byId.length) return { kind: 'act', act: byId[0] };
  if (byKey.length === 1) return { kind: 'act', act: byKey[0] };
  if (byKey.length > 1) throw new ActError('steptest.invalid', `${byKey.length} acts have the key '${ref}': name the act by its id instead`);
  throw new ActError('steptest.invalid', `the model has no step or act '${ref}': a step test runs one step or act, named by its id (or an act's key)`);
}

/** The one-node workflow of `source` for node `ref`, with `inputs` as the variables it starts with. */
export function oneNodeWorkflow(source: string, ref: string, inputs: Vars): OneNode {
  const { workflow, problems } = parseModel(source);
  if (!workflow) throw new ActError('model.invalid', `the model cannot be read: ${problems[0]?.message ?? 'unknown problem'}`, problems);
  const found = findNode(workflow, ref);
  const step: Step =
    found.kind === 'step'
      ? { ...found.step, next: undefined }
      : ({ id: `step_test_of_${found.act.id}`, acts: [{ ...found.act, on: undefined }] } as unknown as Step);
  const generated = {
    id: workflow.id,
    name: `${workflow.name || workflow.id}: step test of ${ref}`,
    tag: workflow.tag,
    inputs,
    env: workflow.env,
    steps: [step],
  };
  const nid = found.kind === 'step' ? found.step.id : found.act.id;
  return { nid, kind: found.kind, source: JSON.stringify(generated), mid: workflow.id };
}
