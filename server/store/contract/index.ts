/** The store boundary: the `Store` contract, the in-memory store and the pure query evaluator. */
export type * from './types.ts';
export { DEFAULT_INDEXES, MemoryCollection, MemoryStore } from './memory.ts';
export type { MemoryStoreOptions } from './memory.ts';
export { DEFAULT_LIMIT, DEFAULT_OFFSET, compileFilter, compileQuery, runQuery } from './query.ts';
export type { CompiledQuery, Predicate } from './query.ts';
