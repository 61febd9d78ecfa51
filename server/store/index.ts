/** The durable store: `openStore(url)` (memory, SQLite file or PostgreSQL) and the Prisma `Store`. */
export { DEFAULT_STORE_URL, defaultStoreUrl, openStore, parseStoreUrl, redactUrl } from './open-store.ts';
export type { OpenStoreOptions, OpenedStore, ParsedStoreUrl, StoreBackend } from './open-store.ts';
export { PrismaStore } from './prisma-store.ts';
export type { PrismaStoreOptions } from './prisma-store.ts';
export type { SqlBackend } from './sql-backend.ts';
export { PrismaCollection } from './prisma-collection.ts';
export { TABLES } from './columns.ts';
export { localMigrations } from './migrate.ts';
