/**
 * The layers of server/ (issue 11, item 7), read from the imports of the source text:
 * - server/engine (the workflow semantics) imports nothing of the runtime, the stores, the API,
 *   the HTTP server, auth or the CLI, and no database, socket or web framework;
 * - server/api reads the store through the runtime's read model: it imports no store module
 *   (server/store) and names store rows through runtime/read-model-types.ts;
 * - no import cycle appears in server/ (type-only imports count too);
 * - the remote workers' client (worker/acts-worker.ts) imports nothing at all.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph } from './helpers/import-graph.ts';

const FORBIDDEN_FOR_ENGINE = /^server\/(runtime|store|api|http|auth|audit|cli)\//;
const STORE_MODULES = /^server\/store\//;
const FORBIDDEN_PACKAGES = /^(@prisma\/|prisma$|socket\.io|@socket\.io\/|next($|\/)|react|pino|pg$|better-sqlite3)/;

const graph = importGraph('server');

describe('the layers of server/', () => {
  it('server/engine imports no runtime, store, API or server file, and no framework or driver', () => {
    const offending: string[] = [];
    for (const [file, targets] of graph.edges) {
      if (!file.startsWith('server/engine/')) continue;
      for (const target of targets) if (FORBIDDEN_FOR_ENGINE.test(target)) offending.push(`${file} -> ${target}`);
      for (const pkg of graph.packages.get(file) ?? []) if (FORBIDDEN_PACKAGES.test(pkg)) offending.push(`${file} -> ${pkg}`);
    }
    expect(offending).toEqual([]);
  });

  it('server/api imports no store module (it reads through engine.reads)', () => {
    const offending: string[] = [];
    for (const [file, targets] of graph.edges) {
      if (!file.startsWith('server/api/')) continue;
      for (const target of targets) if (STORE_MODULES.test(target)) offending.push(`${file} -> ${target}`);
    }
    expect(offending).toEqual([]);
  });

  it('the acts-worker client (worker/) imports nothing: it is usable from any Node program', () => {
    const source = readFileSync(new URL('../worker/acts-worker.ts', import.meta.url), 'utf8');
    expect(source.match(/^\s*import\s[^;]*from\s+['"][^'"]+['"]/gm) ?? []).toEqual([]);
  });

  it('no import cycle', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('finds a cycle where there is one (the check itself)', () => {
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts', 'd.ts']],
    ]);
    expect(cyclesOf({ files: [...edges.keys()], edges, packages: new Map() })).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });
});
