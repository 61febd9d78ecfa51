/**
 * What the simulated client must know of a model, read from its source: every step id (targets of
 * `back`) and the outputs each act declares (the contract a `complete` satisfies), including the
 * acts inside block and fan-out params, which are data until the engine expands them.
 */
import { parseModel, walkWorkflow, type Vars } from '../../server/engine/model/index.ts';

export interface ModelFacts {
  id: string;
  steps: string[];
  outputs: Map<string, Vars>;
}

const BLOCKS = new Set(['acts.core.block', 'acts.core.parallel', 'acts.core.sequence']);

function innerActs(act: { uses: string; params: unknown }, out: Map<string, Vars>): void {
  if (!BLOCKS.has(act.uses)) return;
  const acts = (act.params as { acts?: unknown } | null)?.acts;
  if (!Array.isArray(acts)) return;
  for (const raw of acts as Array<{ id?: string; uses?: string; outputs?: Vars; params?: unknown }>) {
    if (raw.id && raw.outputs && Object.keys(raw.outputs).length > 0) out.set(raw.id, raw.outputs);
    innerActs({ uses: raw.uses ?? '', params: raw.params }, out);
  }
}

export function modelFacts(source: string): ModelFacts {
  const { workflow, problems } = parseModel(source);
  if (!workflow) throw new Error(`the model does not parse: ${problems.map((p) => p.message).join('; ')}`);
  const steps: string[] = [];
  const outputs = new Map<string, Vars>();
  walkWorkflow(workflow, {
    step: (step) => void steps.push(step.id),
    act: (act) => {
      if (Object.keys(act.outputs).length > 0) outputs.set(act.id, act.outputs);
      innerActs(act, outputs);
    },
  });
  return { id: workflow.id, steps, outputs };
}
