/**
 * Undo/redo of the designer's YAML: a pure history of texts.
 *
 * State machine: `{ past, present, future }`. `commit(text)` pushes the present onto `past` and
 * clears `future`; typing within `MERGE_MS` of the last commit of the same origin replaces the
 * present instead (one undo step per burst of typing, not per key). `undo` moves present → future,
 * `redo` moves it back; `reset` starts a new history (another model or version was loaded).
 */
export interface History {
  past: string[];
  present: string;
  future: string[];
  /** Origin and time of the last commit, for merging bursts of typing. */
  last?: { origin: 'typing' | 'edit'; at: number };
}

const LIMIT = 200;
export const MERGE_MS = 800;

export function startHistory(text: string): History {
  return { past: [], present: text, future: [] };
}

export function commit(history: History, text: string, origin: 'typing' | 'edit', at: number): History {
  if (text === history.present) return history;
  const merge = origin === 'typing' && history.last?.origin === 'typing' && at - history.last.at < MERGE_MS && history.past.length > 0;
  const past = merge ? history.past : [...history.past, history.present].slice(-LIMIT);
  return { past, present: text, future: [], last: { origin, at } };
}

export function undo(history: History): History {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo(history: History): History {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}
