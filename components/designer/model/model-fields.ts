/**
 * The model fields of each element kind (spec 1.2–1.5) in the order the designer writes them: a
 * field the designer adds goes after the fields that come before it here (`name` after `id`).
 */
import type { ElementKind } from '../../../vocab/graph.ts';

const IDENTITY = ['id', 'name', 'desc', 'tag'];

export const MODEL_FIELDS: Readonly<Record<ElementKind, readonly string[]>> = {
  workflow: [...IDENTITY, 'ver', 'inputs', 'inputs_schema', 'outputs', 'exposes', 'env', 'on', 'setup', 'steps'],
  step: [...IDENTITY, 'if', 'inputs', 'outputs', 'setup', 'acts', 'branches', 'next', 'catches', 'timeout'],
  branch: [...IDENTITY, 'if', 'else', 'needs', 'run', 'inputs', 'outputs', 'steps'],
  act: [...IDENTITY, 'uses', 'on', 'key', 'if', 'params', 'options', 'inputs', 'outputs', 'setup', 'catches', 'timeout'],
  catch: ['on', 'steps'],
  timeout: ['on', 'steps'],
  trigger: [...IDENTITY, 'uses', 'params', 'cron', 'timezone'],
};

/**
 * Where a new field `key` goes among `existing` keys: after the last one that precedes it in
 * `order` (keys not in `order` are passed over); 0 when none does.
 */
export function insertionIndex(existing: readonly string[], key: string, order: readonly string[]): number {
  const rank = order.indexOf(key);
  if (rank < 0) return existing.length;
  let at = 0;
  existing.forEach((name, i) => {
    const r = order.indexOf(name);
    if (r >= 0 && r < rank) at = i + 1;
  });
  return at;
}
