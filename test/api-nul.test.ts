/**
 * U+0000 (NUL) in API input, over real HTTP on SQLite and PostgreSQL: every procedure refuses it
 * with `input.invalid` naming the field — the same on both stores (PostgreSQL text cannot hold
 * NUL, so without the rule it failed there as `internal`); a login refused for it is still
 * audited; a model whose YAML decodes to a NUL is `model.invalid` (`model.nul`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../server/api/router.ts';
import { apiError, rawCall, startTestServer, type TestServer } from './helpers/server.ts';

const NUL = '\u0000';
const csrf = { 'x-acts-csrf': '1' };

/** An input for any procedure: the fields procedures take, each holding a NUL. */
const POISON = { id: `m${NUL}`, mid: `m${NUL}`, pid: `p${NUL}`, tid: `t${NUL}`, name: `n${NUL}`, source: `id: x${NUL}`, password: `pw${NUL}`, role: `r${NUL}` };

const MODEL = `id: nul
inputs: { note: '' }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: ask }
`;

function procedures(): Array<{ path: string; type: string }> {
  const record = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return Object.entries(record).map(([path, proc]) => ({ path, type: proc._def.type }));
}

describe.each(['sqlite', 'postgresql'] as const)('NUL in API input on %s', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: MODEL });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every procedure, query or mutation, refuses a NUL with input.invalid (HTTP 400), never internal', async () => {
    const list = procedures();
    expect(list.length).toBeGreaterThan(40);
    const codes: Record<string, string> = {};
    for (const { path, type } of list) {
      const reply = await rawCall(t.url, path, { body: POISON, query: type === 'query', headers: { authorization: `Bearer ${t.tokenOf('admin')}`, ...csrf } });
      codes[path] = `${reply.status} ${reply.body.error?.data.code ?? 'ok'}`;
    }
    expect(codes).toEqual(Object.fromEntries(list.map(({ path }) => [path, '400 input.invalid'])));
  });

  it('names the field, nested values and object keys alike, and stores nothing', async () => {
    const op = t.as('operator');
    const value = await apiError(op.processes.start.mutate({ mid: 'nul', inputs: { note: `a${NUL}b` } }));
    expect(value).toMatchObject({ code: 'input.invalid', details: { issues: [{ path: 'inputs.note' }] } });
    expect(value.message).toBe("the field 'inputs.note' contains the character U+0000 (NUL), which cannot be stored; remove it and send the call again");
    const nested = await apiError(op.processes.start.mutate({ mid: 'nul', inputs: { list: [{ ok: 'fine' }, { deep: [`x${NUL}`] }] } }));
    expect(nested.details).toEqual({ issues: [{ path: 'inputs.list.1.deep.0', message: expect.stringContaining('U+0000') }] });
    const key = await apiError(op.processes.start.mutate({ mid: 'nul', inputs: { [`k${NUL}`]: 1 } }));
    expect(key.message).toContain("the field 'inputs' has a key 'k\\u0000' that contains the character U+0000");
    expect(key.message).not.toContain(NUL);
    expect((await t.as('viewer').processes.list.query({ mid: 'nul' })).count).toBe(0);

    const { pid } = await op.processes.start.mutate({ mid: 'nul', inputs: { note: 'clean' } });
    await t.engine.idle();
    expect(await apiError(op.processes.setVars.mutate({ pid, vars: { note: NUL } }))).toMatchObject({ code: 'input.invalid' });
    const ask = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'ask')!;
    expect(await apiError(op.tasks.complete.mutate({ pid, tid: ask.tid, options: { reply: `r${NUL}` } }))).toMatchObject({ code: 'input.invalid' });
    expect((await t.as('viewer').processes.get.query({ pid })).variables).toMatchObject({ note: 'clean' });
  });

  it('a login with a NUL is input.invalid and audited as a failed login (the name shown with \\u0000)', async () => {
    const reply = await rawCall(t.url, 'auth.login', { body: { name: `ad${NUL}min`, password: 'whatever' }, headers: csrf });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.data.code).toBe('input.invalid');
    expect(reply.setCookie).toBeNull();
    expect(await t.audit.last('auth.login')).toMatchObject({ actor: 'anonymous', target: 'ad\\u0000min', result: 'input.invalid' });
    expect((await t.audit.query({ action: 'auth.login', target: 'ad\\u0000min' })).rows).toHaveLength(1);
    const inPassword = await rawCall(t.url, 'auth.login', { body: { name: 'alice', password: `hunter2-secret${NUL}` }, headers: csrf });
    expect(inPassword.body.error?.data.code).toBe('input.invalid');
    const entry = (await t.audit.last('auth.login'))!;
    expect(entry).toMatchObject({ target: 'alice', result: 'input.invalid' });
    // a password no random id can spell by chance (the entry's id once held 'pw')
    expect(JSON.stringify(entry)).not.toContain('hunter2-secret');
  });

  it('model YAML: a raw NUL in the text is input.invalid at validate and deploy; a "\\0" escape is model.invalid (model.nul)', async () => {
    const designer = t.as('designer');
    const raw = MODEL.replace('id: s1', `id: s1 # a${NUL}`);
    expect(await apiError(designer.models.validate.mutate({ source: raw }))).toMatchObject({ code: 'input.invalid', details: { issues: [{ path: 'source' }] } });
    expect(await apiError(designer.models.deploy.mutate({ source: raw }))).toMatchObject({ code: 'input.invalid' });
    const escaped = MODEL.replace('id: nul', 'id: nul2\nname: "a\\0b"');
    const checked = await designer.models.validate.mutate({ source: escaped });
    expect(checked).toMatchObject({ valid: false, problems: [{ code: 'model.nul', path: 'name', position: { line: 2, col: 7 } }] });
    const deploy = await apiError(designer.models.deploy.mutate({ source: escaped }));
    expect(deploy.code).toBe('model.invalid');
    expect(await apiError(t.as('viewer').models.get.query({ id: 'nul2' }))).toMatchObject({ code: 'model.not_found' });
  });
});
