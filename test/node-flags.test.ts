/** `npm start` runs the server with the V8 flags the tests and benchmarks give it (server/node-flags.ts). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../server/node-flags.ts';
import { REPO_ROOT } from '../server/store/schema-engine.mjs';

const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the server node flags', () => {
  it.each([
    ['start', 'server/main.ts'],
    // the engine's own starts, the baseline of the API's, run in the benchmark's process
    ['bench:http', 'bench/http.ts'],
  ])('are passed by npm run %s, before its entry', (script, entryFile) => {
    const words = scripts[script].split(/\s+/);
    const entry = words.indexOf(entryFile);
    expect(entry).toBeGreaterThan(0);
    for (const flag of SERVER_NODE_FLAGS) expect(words.slice(0, entry), `npm run ${script}: ${scripts[script]}`).toContain(flag);
  });
});
