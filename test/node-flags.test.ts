/** `npm start` runs the server with the V8 flags the tests and benchmarks give it (server/http/node-flags.ts). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../server/http/node-flags.ts';
import { REPO_ROOT } from '../server/store/schema-engine.mjs';

describe('the server node flags', () => {
  it('are passed by npm start, before the entry', () => {
    const start = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    const words = start.split(/\s+/);
    const entry = words.indexOf('server/main.ts');
    expect(entry).toBeGreaterThan(0);
    for (const flag of SERVER_NODE_FLAGS) expect(words.slice(0, entry), `npm start: ${start}`).toContain(flag);
  });
});
