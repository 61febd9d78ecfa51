#!/usr/bin/env node
// Builds the Next.js studio (`next build`) when the build is missing or older than its sources,
// so `npm start` works on a fresh clone and stays fast when nothing changed. "Older" is decided
// by a hash of the studio's sources (app/, components/, the shared vocabularies in vocab/,
// next.config.*, tsconfig.json and package-lock.json; the studio imports no value from server/,
// test/vocabulary.test.ts checks it), kept beside the build in .next/acts-studio.hash once a
// build succeeds.
//
//   node scripts/studio-build.mjs            build if needed (npm's prestart)
//   node scripts/studio-build.mjs --force    always build (npm run studio:build)
//   node scripts/studio-build.mjs --check    exit 1 when a build is needed (builds nothing)
//
// Skipped when ACTS_STUDIO is off (API only) or dev (the dev server compiles on demand).
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SOURCE_DIRS = ['app', 'components', 'vocab']
const SOURCE_FILES = ['tsconfig.json', 'package-lock.json']
const STAMP = path.join(root, '.next', 'acts-studio.hash')
const BUILD_ID = path.join(root, '.next', 'BUILD_ID')

const force = process.argv.includes('--force')
const check = process.argv.includes('--check')
const setting = (process.env.ACTS_STUDIO ?? '').toLowerCase()

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}

function sourcesHash() {
  const nextConfigs = fs.readdirSync(root).filter((name) => name.startsWith('next.config.'))
  const files = [
    ...SOURCE_DIRS.flatMap((dir) => filesUnder(path.join(root, dir))),
    ...[...SOURCE_FILES, ...nextConfigs].map((file) => path.join(root, file)).filter((file) => fs.existsSync(file)),
  ].map((file) => path.relative(root, file)).sort()
  const hash = crypto.createHash('sha256')
  for (const file of files) {
    hash.update(`${file}\0`)
    hash.update(fs.readFileSync(path.join(root, file)))
    hash.update('\0')
  }
  return hash.digest('hex')
}

function upToDate(hash) {
  return fs.existsSync(BUILD_ID) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === hash
}

if (setting === 'off' || setting === '0' || setting === 'false' || setting === 'dev') {
  console.log(`studio build skipped (ACTS_STUDIO=${setting})`)
  process.exit(0)
}

const before = sourcesHash()
if (!force && upToDate(before)) {
  if (!check) console.log('studio build is up to date')
  process.exit(0)
}
if (check) {
  console.log('studio build is missing or older than its sources: run npm run studio:build')
  process.exit(1)
}

// One build at a time in this checkout (several test runs may start servers at once): a lock
// directory, taken over when its holder is gone for 10 minutes; the hash is checked again after
// waiting, since the holder may have built the same sources.
const LOCK = path.join(root, '.next-build.lock')
const STALE_MS = 10 * 60_000
async function lock() {
  for (;;) {
    try {
      fs.mkdirSync(LOCK)
      return
    } catch {
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > STALE_MS) fs.rmSync(LOCK, { recursive: true, force: true })
      else await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
}
await lock()
process.on('exit', () => fs.rmSync(LOCK, { recursive: true, force: true }))
if (!force && upToDate(sourcesHash())) {
  console.log('studio build is up to date (built by another run meanwhile)')
  process.exit(0)
}

console.log(force ? 'building the studio…' : 'building the studio (no build yet, or its sources changed)…')
const started = Date.now()
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next')
const result = spawnSync(process.execPath, [nextBin, 'build'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? '1' },
})
if (result.status !== 0) {
  console.error(`next build failed (exit ${result.status ?? result.signal}); the studio cannot start. Fix the error above, or start the API alone with ACTS_STUDIO=off.`)
  process.exit(result.status || 1)
}
// The build may have edited tsconfig.json: hash what the build saw.
fs.writeFileSync(STAMP, `${sourcesHash()}\n`)
console.log(`studio built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
