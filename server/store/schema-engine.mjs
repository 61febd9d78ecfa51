// Drives @prisma/schema-engine-wasm (the WebAssembly build of Prisma's schema engine) through
// Prisma's driver adapters: no native schema-engine binary, no download. Plain ESM JS so both the
// server (through tsx) and scripts/migrate.mjs (plain node) use this one copy.
// Adapted from the shared prisma-offline recipe (PGlite support dropped).
//
// State: the wasm module is instantiated once per process (`SchemaEngineClass`); every
// openSchemaEngine() creates a new engine instance on it and close() frees it.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils'

/** The repository root (this file lives in server/store/): where prisma/ is. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

let SchemaEngineClass // wasm-bindgen may only be instantiated once per process

async function loadWasmSchemaEngine() {
  if (SchemaEngineClass) return SchemaEngineClass
  // The package's main entry does `import * as wasm from "./schema_engine_bg.wasm"` (ESM-wasm
  // integration) which plain Node 20 cannot load. Instantiate by hand, exactly like Prisma's
  // own CLI does (wasm-bindgen "bundler" target).
  const runtime = await import('@prisma/schema-engine-wasm/schema_engine_bg')
  const bgJs = fileURLToPath(import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg'))
  const bytes = fs.readFileSync(path.join(path.dirname(bgJs), 'schema_engine_bg.wasm'))
  const module = new WebAssembly.Module(bytes)
  // The engine races e.g. the Postgres advisory lock against a 10 s setTimeout and never clears it,
  // which keeps Node alive ~10 s after every command. Hand it unref'd timers instead.
  const imports = { ...runtime }
  for (const k of Object.keys(imports)) {
    if (k.startsWith('__wbg_setTimeout_')) {
      imports[k] = (fn, ms) => { const t = setTimeout(fn, ms >>> 0); t.unref?.(); return t }
    }
  }
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': imports })
  runtime.__wbg_set_wasm(instance.exports)
  instance.exports.__wbindgen_start()
  SchemaEngineClass = runtime.SchemaEngine
  return SchemaEngineClass
}

/** Pick a migration-aware Prisma driver adapter factory from a URL. */
export async function adapterFactoryFromUrl(url) {
  if (url.startsWith('file:')) {
    const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3')
    return new PrismaBetterSqlite3({ url }) // shadow db = ":memory:"
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const { PrismaPg } = await import('@prisma/adapter-pg')
    // Pass discrete fields, NOT {connectionString}: PrismaPg.connectToShadowDb() does
    // new Pool({...config, database: shadow}) and pg lets connectionString override `database`.
    const u = new URL(url)
    return new PrismaPg({
      host: u.hostname, port: Number(u.port || 5432),
      user: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
      database: u.pathname.slice(1),
    })
  }
  throw new Error(`unsupported database url '${url}' (expected file:<path> or postgresql://…)`)
}

/**
 * What the driver adapters get wrong for the schema engine, mended on each adapter it opens:
 *  - @prisma/adapter-pg 7.10 splits a migration script (`executeScript`) on every ";" and runs the pieces one by one on the
 *    pool: breaks $$ function bodies / ';' in string literals, and a failing migration is left
 *    half-applied.  Fix: send the whole script as one simple-protocol query (multi-statement,
 *    implicitly atomic: what the native schema engine does).
 *  - @prisma/adapter-pg 7.10 refuses result columns of the internal type "char" (oid 18), which the
 *    engine's catalog queries return (pg_class.relkind, …): `diff` against a live PostgreSQL fails
 *    with "Column type 'char' could not be deserialized". Fix: report them as text (pg already
 *    parses them as strings).
 *  - The engine (7.10) reads a partial index's definition on SQLite with
 *    `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = "<index>"`: a string in double
 *    quotes, which better-sqlite3 refuses (it is built without SQLite's double-quoted string
 *    literals), so `diff` fails on any partial index. Fix: that one query is sent with the name as
 *    a string literal.
 */
function mendAdapter(adapter) {
  if (adapter.adapterName === '@prisma/adapter-better-sqlite3') quotePartialIndexLookup(adapter)
  if (adapter.adapterName === '@prisma/adapter-pg' && adapter.underlyingDriver) {
    const pool = adapter.underlyingDriver()
    adapter.executeScript = async (script) => {
      try { await pool.query(script) } catch (e) { adapter.onError(e) }
    }
    readCharAsText(adapter)
    const startTransaction = adapter.startTransaction.bind(adapter)
    adapter.startTransaction = async (...args) => readCharAsText(await startTransaction(...args))
  }
  return adapter
}

/**
 * @param {{ schemaPath?: string, url?: string, factory?: object, log?: (s:string)=>void }} opts
 * Returns { engine, close }. `engine` is the raw wasm SchemaEngine.
 */
export async function openSchemaEngine({ schemaPath, url, factory, log } = {}) {
  const SchemaEngine = await loadWasmSchemaEngine()
  factory ??= await adapterFactoryFromUrl(url)
  const datamodels = schemaPath ? [[path.resolve(schemaPath), fs.readFileSync(schemaPath, 'utf8')]] : undefined
  // Track every adapter the engine opens so close() can dispose them (engine.free() does not),
  // and mend them (see mendAdapter).
  const opened = []
  const track = (a) => { opened.push(a); return mendAdapter(a) }
  const tracked = Object.assign(Object.create(Object.getPrototypeOf(factory)), factory, {
    provider: factory.provider, adapterName: factory.adapterName,
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  })
  const bound = bindMigrationAwareSqlAdapterFactory(tracked)
  let engine
  try {
    engine = await SchemaEngine.new({ datamodels }, log ?? (() => {}), bound)
  } catch (e) {
    throw unwrapError(bound, e)
  }
  const wrap = (name) => async (input) => {
    try {
      return await engine[name](input) // keep the `this` binding (wasm __wbg_ptr)
    } catch (e) {
      throw unwrapError(bound, e)
    }
  }
  const api = Object.fromEntries(
    ['diff', 'applyMigrations', 'createMigration', 'schemaPush', 'dbExecute', 'diagnoseMigrationHistory',
      'devDiagnostic', 'evaluateDataLoss', 'markMigrationApplied', 'reset', 'version', 'introspect']
      .map((n) => [n, wrap(n)]))
  return {
    engine: api,
    async close() {
      engine.free()
      for (const a of opened.splice(0)) await a.dispose().catch(() => {})
    },
  }
}

const SQLITE_INDEX_LOOKUP = /^(SELECT sql FROM sqlite_master WHERE type = 'index' AND name = )"((?:[^"]|"")*)"(;?)$/
function quotePartialIndexLookup(queryable) {
  const queryRaw = queryable.queryRaw.bind(queryable)
  queryable.queryRaw = (query) => {
    const m = SQLITE_INDEX_LOOKUP.exec(query.sql)
    if (!m) return queryRaw(query)
    const name = m[2].replaceAll('""', '"')
    return queryRaw({ ...query, sql: `${m[1]}'${name.replaceAll("'", "''")}'${m[3]}` })
  }
  const startTransaction = queryable.startTransaction?.bind(queryable)
  if (startTransaction) queryable.startTransaction = async (...args) => quotePartialIndexLookup(await startTransaction(...args))
  return queryable
}

const PG_CHAR_OID = 18
const PG_TEXT_OID = 25
function readCharAsText(queryable) {
  const performIO = queryable.performIO.bind(queryable)
  queryable.performIO = async (query) => {
    const result = await performIO(query)
    for (const field of result?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID
    return result
  }
  return queryable
}

// Driver errors are parked in bound.errorRegistry; the engine error only carries their id.
function unwrapError(bound, e) {
  const m = /External error id#(\d+)/.exec(String(e?.message ?? e))
  const reg = m ? bound.errorRegistry.consumeError(Number(m[1])) : undefined
  if (!reg?.error) return e
  const inner = reg.error
  const detail = inner?.message ?? JSON.stringify(inner, (_k, v) => (typeof v === 'bigint' ? String(v) : v))
  return Object.assign(new Error(`${e.message}\n  driver error: ${detail}`), { cause: inner })
}

export const emptyFilter = { externalTables: [], externalEnums: [] }

/** Read prisma/migrations in the exact shape Prisma's CLI passes to the engine. */
export function loadMigrationList(migrationsDir) {
  const baseDir = path.resolve(migrationsDir)
  fs.mkdirSync(baseDir, { recursive: true })
  const lockPath = path.join(baseDir, 'migration_lock.toml')
  const dirs = fs.readdirSync(baseDir, { withFileTypes: true })
    .filter((d) => d.isDirectory()).map((d) => d.name).sort()
  return {
    baseDir,
    lockfile: { path: lockPath, content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => {
      const f = path.join(baseDir, name, 'migration.sql')
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(f)
            ? { tag: 'ok', value: fs.readFileSync(f, 'utf8') }
            : { tag: 'error', value: 'Could not read migration.sql' },
        },
      }
    }),
  }
}

/**
 * `prisma migrate deploy` equivalent, usable at server start-up or in tests.
 * Pass `factory` to reuse an adapter factory the caller already owns.
 */
export async function migrateDeploy({ url, factory, provider, root = REPO_ROOT } = {}) {
  provider ??= url?.startsWith('file:') || factory?.provider === 'sqlite' ? 'sqlite' : 'postgresql'
  const schemaPath = path.join(root, 'prisma', provider, 'schema.prisma')
  const { engine, close } = await openSchemaEngine({ schemaPath, url, factory })
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: loadMigrationList(path.join(root, 'prisma', provider, 'migrations')), filters: emptyFilter,
    })
    return appliedMigrationNames
  } finally {
    await close()
  }
}
