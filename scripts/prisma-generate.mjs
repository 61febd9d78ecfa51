#!/usr/bin/env node
// 1) Writes prisma/<provider>/schema.prisma for sqlite and postgresql from ONE models file
//    (prisma/models.prisma); those files are committed so the stock Prisma CLI can use them.
// 2) Runs `prisma generate` for both into server/store/generated/<provider> (not committed),
//    without touching the engine download host. Skipped when the generated client is already
//    up to date (a stamp file holds a hash of the schema and the prisma version); --force redoes it.
//
//   node scripts/prisma-generate.mjs            write schemas + generate clients
//   node scripts/prisma-generate.mjs --check    fail when a committed schema is stale (writes nothing)
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
const PROVIDERS = ['sqlite', 'postgresql']
const check = process.argv.includes('--check')
const force = process.argv.includes('--force')

const models = fs.readFileSync('prisma/models.prisma', 'utf8')
const schemaText = (provider) => `// GENERATED from prisma/models.prisma by scripts/prisma-generate.mjs. Do not edit.
generator client {
  provider        = "prisma-client"
  output          = "../../server/store/generated/${provider}"
  previewFeatures = ["partialIndexes"]
}

datasource db {
  provider = "${provider}"
}

${models}`

let stale = []
for (const provider of PROVIDERS) {
  const file = `prisma/${provider}/schema.prisma`
  const text = schemaText(provider)
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
  if (old !== text) {
    stale.push(file)
    if (!check) { fs.mkdirSync(`prisma/${provider}`, { recursive: true }); fs.writeFileSync(file, text) }
  }
}
if (check) {
  if (stale.length) {
    console.error(`stale: ${stale.join(', ')} (prisma/models.prisma changed): run npm run db:generate`)
    process.exit(1)
  }
  console.error('prisma/<provider>/schema.prisma up to date')
  process.exit(0)
}
if (stale.length) console.error(`wrote ${stale.join(', ')}`)

// `prisma generate` does not use the schema engine, but the CLI insists on downloading it first.
// Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing executable skips the download; node itself
// always exists. Harmless on an online machine too (only `generate` runs with it).
const require = createRequire(import.meta.url)
const cli = require.resolve('prisma/build/index.js')
const version = JSON.parse(fs.readFileSync(require.resolve('prisma/package.json'), 'utf8')).version
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  PRISMA_GENERATE_NO_HINTS: '1',
}
for (const provider of PROVIDERS) {
  const schema = `prisma/${provider}/schema.prisma`
  const out = `server/store/generated/${provider}`
  const stamp = path.join(out, '.stamp')
  const hash = crypto.createHash('sha256').update(version).update(fs.readFileSync(schema)).digest('hex')
  if (!force && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) continue
  const r = spawnSync(process.execPath, [cli, 'generate', '--schema', schema], { stdio: 'inherit', env })
  if (r.status !== 0) process.exit(r.status ?? 1)
  fs.writeFileSync(stamp, hash)
}
