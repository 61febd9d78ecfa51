/**
 * Variables and data flow (spec 2.11): lookups walk up the parent chain (the nearest value wins,
 * section 0.10); writes update the top-most ancestor that already owns the key and always the task.
 */
import type { Vars } from './model/types.ts';
import type { Task } from './task.ts';

/** `data` and `__x` keys stay on the task that wrote them and are never exposed. */
export function isPrivateKey(key: string): boolean {
  return key === 'data' || key.startsWith('__');
}

/** Whether a value is a map of variables: an object that is neither null nor an array. */
export function isVarsObject(v: unknown): v is Vars {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const has = (obj: Vars, key: string) => Object.prototype.hasOwnProperty.call(obj, key);

/** The task owning the nearest value of `key`, walking up from `task`. */
export function ownerOf(task: Task, key: string): Task | undefined {
  for (let t: Task | null = task; t; t = t.parent) if (has(t.data, key)) return t;
  return undefined;
}

export function lookup(task: Task, key: string): unknown {
  return ownerOf(task, key)?.data[key];
}

export function isVisible(task: Task, key: string): boolean {
  return ownerOf(task, key) !== undefined;
}

/** `update_data` (spec 2.11(2)). */
export function updateData(task: Task, key: string, value: unknown): void {
  if (!isPrivateKey(key)) {
    const chain: Task[] = [];
    for (let t = task.parent; t; t = t.parent) chain.push(t);
    for (let i = chain.length - 1; i >= 0; i--) {
      if (has(chain[i].data, key)) {
        chain[i].data[key] = value;
        chain[i].touch();
        break;
      }
    }
  }
  task.data[key] = value;
  task.touch();
}

export function mergeData(task: Task, vars: Vars): void {
  for (const [key, value] of Object.entries(vars)) updateData(task, key, value);
}

/** Marks keys as outputs of the task, so they travel on to its parent when it finishes. */
export function markOutputs(task: Task, vars: Vars): void {
  for (const key of Object.keys(vars)) if (!isPrivateKey(key)) task.outputKeys.add(key);
}
