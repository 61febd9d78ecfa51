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

/** Reads tasks' data: as it is (`CURRENT_DATA`), or with data that has not reached them yet (`PendingData`). */
export interface DataReader {
  lookup(task: Task, key: string): unknown;
  isVisible(task: Task, key: string): boolean;
  /** The task's own value of `key`. */
  own(task: Task, key: string): unknown;
  outputKeys(task: Task): Iterable<string>;
}

export const CURRENT_DATA: DataReader = { lookup, isVisible, own: (task, key) => task.data[key], outputKeys: (task) => task.outputKeys };

/**
 * Data on its way to tasks and not written yet (closing.ts evaluates outputs ahead with it): what
 * `mergeData` — and `markOutputs` — would write, kept beside the tasks and read over their data.
 */
export class PendingData implements DataReader {
  private readonly data = new Map<Task, Vars>();
  private readonly keys = new Map<Task, Set<string>>();

  get empty(): boolean {
    return this.data.size === 0 && this.keys.size === 0;
  }

  /** What `mergeData(task, vars)` would write (and `markOutputs(task, vars)` when `asOutputs`). */
  pass(task: Task, vars: Vars, asOutputs: boolean): void {
    for (const [key, value] of Object.entries(vars)) {
      if (!isPrivateKey(key)) {
        const chain: Task[] = [];
        for (let t = task.parent; t; t = t.parent) chain.push(t);
        const top = chain.reverse().find((t) => this.owns(t, key));
        if (top) this.write(top, key, value);
        if (asOutputs) this.keysOf(task).add(key);
      }
      this.write(task, key, value);
    }
  }

  lookup(task: Task, key: string): unknown {
    for (let t: Task | null = task; t; t = t.parent) {
      const pending = this.data.get(t);
      if (pending && has(pending, key)) return pending[key];
      if (has(t.data, key)) return t.data[key];
    }
    return undefined;
  }

  isVisible(task: Task, key: string): boolean {
    for (let t: Task | null = task; t; t = t.parent) if (this.owns(t, key)) return true;
    return false;
  }

  own(task: Task, key: string): unknown {
    return this.dataOf(task)[key];
  }

  outputKeys(task: Task): Iterable<string> {
    const pending = this.keys.get(task);
    return pending ? new Set([...task.outputKeys, ...pending]) : task.outputKeys;
  }

  /** The task's data with what is on its way to it. */
  dataOf(task: Task): Vars {
    const pending = this.data.get(task);
    return pending ? { ...task.data, ...pending } : task.data;
  }

  private owns(task: Task, key: string): boolean {
    const pending = this.data.get(task);
    return (pending !== undefined && has(pending, key)) || has(task.data, key);
  }

  private write(task: Task, key: string, value: unknown): void {
    let pending = this.data.get(task);
    if (!pending) this.data.set(task, (pending = {}));
    pending[key] = value;
  }

  private keysOf(task: Task): Set<string> {
    let keys = this.keys.get(task);
    if (!keys) this.keys.set(task, (keys = new Set()));
    return keys;
  }
}
