/**
 * What the runs search finds in a process's inputs (`procs.inputs_text`): the values of its start
 * inputs — strings, numbers and booleans, nested ones too, not the names — lowercased, one a line,
 * cut at INPUTS_TEXT_CHARS. The search lowercases its term the same way (`searchTerm`), so it does
 * not depend on the database's LIKE folding. Keys are left out: searching `amount` should not
 * find every run of a model whose inputs have an amount.
 */
import type { Vars } from '../engine/model/types.ts';

/** The most characters kept of a process's input values (about 1 KB a row). */
export const INPUTS_TEXT_CHARS = 1_000;

/** A term as the search compares it with `inputsText`. */
export function searchTerm(term: string): string {
  return term.toLowerCase();
}

/** The scalar values of `inputs`, depth first in key order, walked without recursion. */
function scalars(inputs: Vars, keep: (text: string) => boolean): void {
  const stack: unknown[] = [inputs];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      if (!keep(String(value))) return;
    } else if (value !== null && typeof value === 'object') {
      const items = Array.isArray(value) ? value : Object.values(value);
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
}

/** Texts already made, by inputs object: a process row is written many times, its inputs stay the same object. */
const made = new WeakMap<Vars, string | null>();

/** The `inputs_text` of a process started with `inputs`; null when they hold no value. */
export function inputsText(inputs: Vars | undefined): string | null {
  if (!inputs) return null;
  if (made.has(inputs)) return made.get(inputs)!;
  const text = textOf(inputs);
  made.set(inputs, text);
  return text;
}

function textOf(inputs: Vars): string | null {
  const lines: string[] = [];
  let length = 0;
  scalars(inputs, (text) => {
    lines.push(text);
    length += text.length + 1;
    return length < INPUTS_TEXT_CHARS;
  });
  return lines.length > 0 ? searchTerm(lines.join('\n').slice(0, INPUTS_TEXT_CHARS)) : null;
}
