/**
 * What a task's data becomes through the model: an act's evaluated params (spec 1.8), a task's
 * outputs (2.11(3)), the root's check against `exposes` (5.12), and run-time act definitions
 * (pushed acts, block items) normalised with the model's defaults.
 */
import type { EngineContext } from './context.ts';
import { ActError } from './errors.ts';
import { renderParams, renderValueMap, type Evaluate } from './expr/templates.ts';
import { renderWithSecrets, secretNames } from './expr/secret-templates.ts';
import { fillIds } from './model/fill-ids.ts';
import { workflowSchema } from './model/schema.ts';
import type { Act, Vars } from './model/types.ts';
import type { Process } from './process.ts';
import { validateSchema } from './schemas.ts';
import type { Task } from './task.ts';
import { asAct } from './tree/node.ts';
import { CURRENT_DATA, isPrivateKey, type DataReader } from './vars.ts';
import type { IdSource } from './clock.ts';

type Evaluating = Pick<EngineContext, 'evaluator' | 'checkSize'>;
type ParamsContext = Evaluating & Pick<EngineContext, 'secrets'>;

/** Keys of act params that are templates for *other* acts and must stay raw. */
export const RAW_PARAM_KEYS: Record<string, string[] | 'all'> = {
  'acts.core.block': ['acts'],
  'acts.core.parallel': ['acts'],
  'acts.core.sequence': ['acts'],
  'acts.transform.code': 'all',
};

/** The act's params with their templates evaluated by `evaluate` (but the raw keys of its package). */
function renderedParams(act: Act, evaluate: Evaluate): unknown {
  const raw = RAW_PARAM_KEYS[act.uses];
  const params = act.params;
  if (raw === 'all') return params;
  if (raw && params && typeof params === 'object' && !Array.isArray(params)) {
    const rest: Vars = {};
    const kept: Vars = {};
    for (const [k, v] of Object.entries(params as Vars)) (raw.includes(k) ? kept : rest)[k] = v;
    return { ...(renderParams(rest, evaluate) as Vars), ...kept };
  }
  return renderParams(params, evaluate);
}

/**
 * Evaluated params of an act, cached on the task so the act sees one stable value; `***` in place
 * of each secret's value (expr/secret-templates.ts; the values stay in `task.clearParams`).
 */
export function paramsOf(ctx: ParamsContext, proc: Process, task: Task): unknown {
  if (!task.paramsReady) {
    const act = asAct(task.node);
    const rendered = renderWithSecrets((evaluate) => renderedParams(act, evaluate), ctx.evaluator(proc, task), ctx.secrets, `act '${act.id}'`);
    task.params = rendered.shown;
    task.clearParams = rendered.clear;
    task.secretValues = rendered.values.length > 0 ? rendered.values : undefined;
    ctx.checkSize(`the params of act '${act.id}'`, task.params);
    task.paramsReady = true;
  }
  return task.params;
}

/**
 * The params an act that may read secrets runs with: their values in place. Params read before
 * a restart kept only `***`: they are evaluated again (the values are never stored).
 */
export function clearParamsOf(ctx: ParamsContext, proc: Process, task: Task): unknown {
  if (task.paramsReady && task.clearParams === undefined && secretNames(asAct(task.node).params).length > 0) task.paramsReady = false;
  const shown = paramsOf(ctx, proc, task);
  return task.clearParams ?? shown;
}

/**
 * Outputs of a task: its declared outputs, the exposed keys, and (but the root) its marked keys.
 * `data`: how its data reads (closing.ts evaluates outputs ahead over data not written yet).
 */
export function outputsOf(ctx: Evaluating, proc: Process, task: Task, data: DataReader = CURRENT_DATA): Vars {
  const closing = task.closingOutputs;
  if (closing) {
    task.closingOutputs = undefined;
    return closing;
  }
  const out: Vars = {};
  const declared = (task.node.content as { outputs?: Vars }).outputs ?? {};
  const evaluate = ctx.evaluator(proc, task);
  for (const [key, value] of Object.entries(declared)) {
    if (isPrivateKey(key) && key !== 'data') continue;
    out[key] = value === null || value === undefined ? (data.lookup(task, key) ?? null) : renderValueMap({ [key]: value }, evaluate)[key];
  }
  const expose = Array.isArray(proc.env.expose) ? (proc.env.expose as unknown[]).map(String) : ['data'];
  for (const key of expose) if (!(key in out) && data.isVisible(task, key)) out[key] = data.lookup(task, key);
  // The root returns only what the model declares (and exposes); other tasks carry their marked keys up.
  if (task.tid !== '$') for (const key of data.outputKeys(task)) if (!isPrivateKey(key)) out[key] = data.own(task, key);
  return out;
}

/** How the size bound names a task's outputs. */
function outputsName(task: Task): string {
  return `the outputs object of ${task.kind} '${task.node.id}'`;
}

/**
 * The outputs a task completes with (they become its parent's data): above `value_cap_bytes`
 * they fail it with `data.too_large` (value-cap.ts).
 */
export function checkedOutputs(ctx: Evaluating, task: Task, outputs: Vars): Vars {
  ctx.checkSize(outputsName(task), outputs);
  return outputs;
}

/**
 * The outputs of a task whose fate is decided otherwise (an error, a skip, an abort, a jump that
 * leaves it): it cannot fail any more, so outputs above the cap are left out of it and its message.
 */
export function boundedOutputs(ctx: Evaluating, task: Task, outputs: Vars): Vars {
  try {
    return checkedOutputs(ctx, task, outputs);
  } catch (err) {
    if (ActError.is(err) && err.code === 'data.too_large') return {};
    throw err;
  }
}

/** `outputsOf`, bounded as `boundedOutputs` bounds them: a task closed otherwise, or its message. */
export function closedOutputsOf(ctx: Evaluating, proc: Process, task: Task): Vars {
  return boundedOutputs(ctx, task, outputsOf(ctx, proc, task));
}

/** Checks the final outputs against the model's `exposes` schema; the problem, or null. */
export function validateExposes(proc: Process, outputs: Vars): string | null {
  const schema = proc.workflow.exposes;
  if (!schema || Object.keys(schema).length === 0) return null;
  const problems = validateSchema(schema, outputs);
  return problems ? `model(${proc.mid}) outputs do not satisfy 'exposes': ${problems}` : null;
}

/** Normalises a run-time act definition (pushed act, block item) with the model's defaults. */
export function normalizeAct(raw: unknown, newId: IdSource): Act {
  const parsed = workflowSchema.safeParse({ id: '_', steps: [{ id: '_', acts: [raw] }] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ActError('params.invalid', `invalid act definition: ${issue ? `${issue.path.slice(3).join('.') || 'act'}: ${issue.message}` : 'unreadable'}`);
  }
  fillIds(parsed.data, { newId });
  return parsed.data.steps[0].acts[0];
}
