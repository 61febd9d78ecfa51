/**
 * What an operator sees beside an inbox task to decide (issue 17 item 6): the process's start
 * inputs and the variables visible at the task (the nearest value of each key up its parent chain,
 * as the engine's lookups see them; private `__x`/`data` keys left out). When the act's params
 * name its `context` (`context: [amount, requester]`), those variables are shown, in that order,
 * and no others (a name not set at the task is left out); otherwise every visible variable not
 * still equal to its start input. Bounded: at most `CONTEXT_ENTRIES` keys a list (`omitted` counts
 * the rest), each value's JSON above `CONTEXT_VALUE_BYTES` cut to a `$truncated` marker
 * (large-values.ts); the run page (`processes.get`, `processes.variable`) shows them whole.
 */
import { nameList } from '../../vocab/inbox-principals.ts';
import type { TaskInfo } from '../runtime/info.ts';
import { shownValue } from './large-values.ts';

/** Most keys in one list of the context. */
export const CONTEXT_ENTRIES = 40;
/** Largest JSON of one value shown whole in the context. */
export const CONTEXT_VALUE_BYTES = 1024;
const CONTEXT_PREVIEW_CHARS = 200;

export interface ContextList {
  values: Record<string, unknown>;
  /** Keys left out beyond `CONTEXT_ENTRIES`. */
  omitted: number;
}

export interface TaskContext {
  inputs: ContextList;
  variables: ContextList;
}

const isPrivate = (key: string) => key === 'data' || key.startsWith('__');

/** A map of values as the context shows it: at most `CONTEXT_ENTRIES` keys, each value cut above `CONTEXT_VALUE_BYTES`. */
export function boundedVars(vars: Record<string, unknown>): ContextList {
  return bounded(Object.entries(vars).filter(([key]) => !isPrivate(key)));
}

/** The params of an act as the context shows them (cut above `CONTEXT_VALUE_BYTES`). */
export function boundedParams(params: unknown): unknown {
  return shownValue(params, CONTEXT_VALUE_BYTES, CONTEXT_PREVIEW_CHARS);
}

function bounded(entries: Array<[string, unknown]>): ContextList {
  const shown = entries.slice(0, CONTEXT_ENTRIES).map(([k, v]) => [k, shownValue(v, CONTEXT_VALUE_BYTES, CONTEXT_PREVIEW_CHARS)]);
  return { values: Object.fromEntries(shown), omitted: entries.length - shown.length };
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The context of `task` in a process whose tasks are `tasks` (the root is `$`). */
export function taskContext(tasks: Map<string, TaskInfo>, task: TaskInfo): TaskContext {
  const inputs = tasks.get('$')?.inputs ?? {};
  const visible = new Map<string, unknown>();
  for (let t = task.parent ? tasks.get(task.parent) : undefined; t; t = t.parent ? tasks.get(t.parent) : undefined) {
    for (const [key, value] of Object.entries(t.data)) if (!isPrivate(key) && !visible.has(key)) visible.set(key, value);
  }
  const marked = markedContext(task.params);
  const shown = marked
    ? marked.filter((key) => !isPrivate(key) && visible.has(key)).map((key): [string, unknown] => [key, visible.get(key)])
    : [...visible].filter(([key, value]) => !(Object.hasOwn(inputs, key) && same(inputs[key], value)));
  return { inputs: bounded(Object.entries(inputs)), variables: bounded(shown) };
}

/** The variable names an act's params mark as its context, each once; null when it marks none. */
function markedContext(params: unknown): string[] | null {
  if (typeof params !== 'object' || params === null || !Object.hasOwn(params, 'context')) return null;
  const names = nameList((params as { context: unknown }).context);
  return names.length > 0 ? [...new Set(names)] : null;
}
