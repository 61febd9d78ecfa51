/**
 * The server's collections (server-rows.ts) on the store `openStore` opens: on SQL they are
 * PrismaCollections on the engine store's own client (one connection and gate on SQLite, the
 * engine's pool on PostgreSQL, migrated together); on `memory:` they are MemoryCollections.
 * The engine's `Store` interface does not know them; `OpenedStore` (open-store.ts) does. Their named
 * queries (`serverQueries`) come along: memory-server-queries.ts, or sql/server-queries.ts.
 *
 * State: none of its own; the collections hold the rows (memory) or reach the database (SQL).
 */
import { MemoryCollection } from './contract/memory.ts';
import type { Collection } from './contract/types.ts';
import { isServerCollectionName, SERVER_COLLECTION_NAMES, TABLES, type Table } from './columns.ts';
import type { ServerCollectionName, ServerCollections, ServerQueries, ServerStore } from './server-rows.ts';

/** Fields the memory collections index: the ones server/auth and server/audit filter on with `eq`. */
export const SERVER_INDEXES: Readonly<Record<ServerCollectionName, readonly string[]>> = {
  users: ['name'],
  sessions: ['user_id'],
  apiTokens: ['token_hash', 'user_id'],
  audit: ['actor', 'action', 'target'],
  drafts: ['user_id', 'mid'],
  secrets: [],
  groups: [],
  notifications: [],
  mailLinkUses: [],
};

/** Makes the collection of one server table (rows are typed by `ServerCollections`). */
export type CollectionFactory = (table: Table, name: ServerCollectionName) => Collection<{ id: string }>;

/**
 * Adds the server's collections, each made by `make`, and the named queries `queries` answers on
 * them to `store` (in place) and returns it.
 */
export function withServerCollections<S extends object>(
  store: S,
  make: CollectionFactory,
  queries: (collections: ServerCollections) => ServerQueries,
): S & ServerStore {
  const made: Partial<Record<ServerCollectionName, Collection<{ id: string }>>> = {};
  for (const name of SERVER_COLLECTION_NAMES) made[name] = make(TABLES[name], name);
  const collections = made as unknown as ServerCollections;
  // Store.serverCollection: the memory store runs a batch on itself, so this serves its batches too
  const serverCollection = (name: string): Collection<{ id: string }> | undefined => (isServerCollectionName(name) ? made[name] : undefined);
  return Object.assign(store, collections, { serverQueries: queries(collections), serverCollection });
}

/** The factory of the memory store's server collections. */
export const memoryServerCollection: CollectionFactory = (_table, name) => new MemoryCollection(name, SERVER_INDEXES[name]);
