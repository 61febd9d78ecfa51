/**
 * examples/remote-worker (issue 13 item 8, third example): the package declared from its schema
 * file, the model deployed, the example's worker.ts run as its own process; a priced run and one
 * the worker fails with no_rate (caught) both complete; the worker stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.ts';

const DIR = path.join(import.meta.dirname, '../examples/remote-worker');

describe('examples/remote-worker', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend: 'sqlite' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the worker prices a parcel and fails an unknown speed with no_rate (caught)', { timeout: 60_000 }, async () => {
    const schema = JSON.parse(readFileSync(path.join(DIR, 'quote.schema.json'), 'utf8')) as unknown;
    await server.as('designer').packages.register.mutate({ name: 'ext.quote', desc: 'Prices a parcel', schema });
    await server.as('designer').models.deploy.mutate({ source: readFileSync(path.join(DIR, 'shipping-quote.yml'), 'utf8') });
    const priced = (await server.as('operator').processes.start.mutate({ mid: 'shipping-quote', inputs: { speed: 'express', kg: 2 } })).pid;
    const unknown = (await server.as('operator').processes.start.mutate({ mid: 'shipping-quote', inputs: { speed: 'teleport', kg: 1 } })).pid;
    const worker = spawn(process.execPath, ['--import', 'tsx', path.join(DIR, 'worker.ts')], {
      env: { ...process.env, ACTS_URL: server.url, ACTS_TOKEN: server.tokens.operator },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => worker.on('exit', resolve));
    const run = (pid: string) => server.as('viewer').processes.get.query({ pid });
    try {
      for (;;) {
        const states = await Promise.all([priced, unknown].map(async (pid) => (await run(pid)).process.state));
        if (states.every((s) => s === 'completed')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      worker.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect((await run(priced)).tasks.find((t) => t.key === 'quote')?.data).toMatchObject({ price: 25 });
    expect((await run(unknown)).tasks.find((t) => t.key === 'tell_sales')).toMatchObject({ state: 'completed' });
  });
});
