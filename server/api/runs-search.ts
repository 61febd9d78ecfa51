/**
 * The runs list's search (`processes.list` `search`): one term finds a run by its id (the exact id
 * or a prefix of it: a range on the primary key), by its business key (the key it was started
 * with, `procs.start_key`, exact: its index) or by a value of its start inputs (containment in
 * `procs.inputs_text`, case-insensitive: runtime/inputs-text.ts).
 *
 * Cost: the containment term cannot use a B-tree index, so a search reads the procs table once
 * (the count) and walks it newest first for the page; measured on 10,000 runs in
 * bench/runs-search.ts (figures in docs/server.md, "Searching runs").
 */
import { z } from 'zod';
import type { QueryFilter } from '../runtime/read-model-types.ts';
import { searchTerm } from '../runtime/inputs-text.ts';
import { MAX_START_KEY_CHARS } from '../../vocab/input-limits.ts';

/** Above every character an id may hold: `[term, term + ID_END)` is the ids starting with term. */
const ID_END = '\u{10FFFF}';

/** The `search` field of `processes.list`: trimmed; empty means no search. */
export const runsSearch = z
  .string()
  .trim()
  .max(MAX_START_KEY_CHARS, `the search is longer than ${MAX_START_KEY_CHARS} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'the search must not contain control characters')
  .optional();

/** The filter of a search term; undefined for none. */
export function runsSearchFilter(term: string | undefined): QueryFilter | undefined {
  if (!term) return undefined;
  return {
    type: 'or',
    exprs: [
      { type: 'and', exprs: [{ key: 'id', op: 'ge', value: term }, { key: 'id', op: 'lt', value: term + ID_END }] },
      { key: 'start_key', op: 'eq', value: term },
      { key: 'inputs_text', op: 'match', value: searchTerm(term) },
    ],
  };
}
