/**
 * API: the shell and state packages (issue 13, items 2 and 3) over real HTTP on SQLite and
 * PostgreSQL — listed with their params schemas (the designer's palette and forms), deploy refused
 * with model.package_off while shell acts are off, and a run whose state and shell acts work
 * when they are on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const FLOW = `id: app
steps:
  - id: s1
    acts:
      - { uses: acts.app.state, key: put, params: { op: SET, key: count, value: 2 } }
      - { uses: acts.app.state, key: get, params: { op: GET, key: count } }
      - { uses: acts.app.shell, key: script, params: { script: 'echo $((N * 21))', env: { N: '{{ count }}' }, content-type: json } }
`;

describe.each(['sqlite', 'postgresql'] as const)('API shell and state packages on %s', (backend) => {
  let off: TestServer;
  let on: TestServer;
  beforeAll(async () => {
    off = await startTestServer({ backend });
    on = await startTestServer({ backend, engine: { shell: { enabled: true, root: mkdtempSync(path.join(tmpdir(), 'acts-api-shell-')) } } });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  it('lists both packages with their params schemas', async () => {
    const shell = await off.as('viewer').packages.get.query({ name: 'acts.app.shell' });
    expect(shell).toMatchObject({ id: 'acts.app.shell', catalog: 'app', built_in: true, schema: { required: ['script'] } });
    const state = await off.as('viewer').packages.get.query({ name: 'acts.app.state' });
    expect(state).toMatchObject({ id: 'acts.app.state', catalog: 'app', schema: { required: ['op', 'key'] } });
  });

  it('the list says which packages this server does not run, and why (the palette shows them off)', async () => {
    const offOf = async (t: TestServer) => Object.fromEntries((await t.as('viewer').packages.list.query({ offset: 0, limit: 100 })).rows.map((p) => [p.id, p.off]));
    const listed = await offOf(off);
    expect(listed['acts.app.shell']).toMatch(/ACTS_SHELL_ENABLE=1/);
    expect(listed['acts.app.state']).toBeNull();
    expect(listed['acts.core.http']).toBeNull();
    expect((await offOf(on))['acts.app.shell']).toBeNull();
  });

  it('shell acts off: deploy is model.invalid with model.package_off, validate says the same', async () => {
    const refused = await apiError(off.as('designer').models.deploy.mutate({ source: FLOW }));
    expect(refused.code).toBe('model.invalid');
    expect(refused.details).toEqual([expect.objectContaining({ code: 'model.package_off', path: 'steps[0].acts[2].uses', message: expect.stringMatching(/ACTS_SHELL_ENABLE=1/) })]);
    const validated = await off.as('designer').models.validate.mutate({ source: FLOW });
    expect(validated.problems).toEqual([expect.objectContaining({ code: 'model.package_off' })]);
  });

  it('shell acts on: a run keeps a value, reads it back and computes with it in a script', async () => {
    await on.as('designer').models.deploy.mutate({ source: FLOW });
    const { pid } = await on.as('operator').processes.start.mutate({ mid: 'app' });
    await on.engine.idle();
    const run = await on.as('viewer').processes.get.query({ pid });
    expect(run.process.state).toBe('completed');
    expect(run.tasks.find((t) => t.key === 'script')).toMatchObject({ data: { data: 42, exit_code: 0 } });
  });
});
