/**
 * `acts.app.shell` (issue 13, item 2) with real child processes: stdout into the act's data (text
 * or JSON), a non-zero exit fails the act with ecode `shell.exit` and stderr in its message, the
 * time and output limits kill the whole process group, the script's environment is explicit (no
 * server variable leaks), its directory is the process's and goes with the sweeper, a script that
 * waits holds no lane, and the package is off unless the configuration enables it.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../server/runtime/engine.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';
import { eventually } from './helpers/eventually.ts';
import { running } from './helpers/os-process.ts';
import { oneActModel, runOneAct, type OneAct, type OneActRun } from './helpers/one-act.ts';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

function scratch(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'acts-shell-test-')));
}

async function harness(options: EngineOptions = {}, root = scratch()): Promise<Harness & { root: string }> {
  const h = await createHarness({ shell: { enabled: true, root }, ...options });
  harnesses.push(h);
  return Object.assign(h, { root });
}

const SCRIPT: OneAct = { mid: 'sh', uses: 'acts.app.shell', key: 'script', inputs: '{ name: world }' };

/** A model of one shell act with `params` (YAML flow map), then a msg act that runs only after it. */
function model(params: string, extra = ''): string {
  return oneActModel(SCRIPT, params, extra);
}

function run(h: Harness, params: string, extra = ''): Promise<OneActRun> {
  return runOneAct(h, SCRIPT, params, extra);
}

describe('acts.app.shell output', () => {
  it("stdout (less its trailing newline) is the act's data; templates in the script are rendered first; the process goes on", async () => {
    const h = await harness();
    const { state, act } = await run(h, `{ script: 'echo "hello {{ name }}"; echo warn >&2' }`);
    expect(state).toBe('completed');
    expect(act.data).toMatchObject({ data: 'hello world', exit_code: 0, stderr: 'warn\n' });
    expect(act.outputs).toMatchObject({ data: 'hello world', exit_code: 0 });
    expect(h.find({ key: 'after', state: 'completed' })).toHaveLength(1);
  });

  it('content-type json parses stdout; output that is not JSON is shell.bad_json', async () => {
    const h = await harness();
    const good = await run(h, `{ script: 'printf "{\\"n\\": 3, \\"list\\": [1, 2]}"', content-type: json }`);
    expect(good.act.data.data).toEqual({ n: 3, list: [1, 2] });
    const bad = await run(h, `{ script: 'echo not json', content-type: json }`);
    expect(bad.state).toBe('error');
    expect(bad.err).toMatchObject({ ecode: 'shell.bad_json', message: expect.stringMatching(/not JSON.*'not json'.*content-type: text/) });
  });

  it('bash runs when asked; a shell that is not installed is shell.unavailable', async () => {
    const h = await harness();
    expect((await run(h, `{ shell: bash, script: 'echo "$BASH_VERSION" | cut -c1' }`)).act.data.data).toMatch(/^\d$/);
    if (!['/usr/bin/nu', '/usr/local/bin/nu', '/bin/nu'].some((f) => existsSync(f))) {
      const nu = await run(h, `{ shell: nu, script: 'echo hi' }`);
      expect(nu.err).toMatchObject({ ecode: 'shell.unavailable', message: expect.stringMatching(/'nu' is not installed.*use sh or bash/) });
    }
  });
});

describe('acts.app.shell failures', () => {
  it('a non-zero exit fails the act with ecode shell.exit, the code in exit_code and stderr in the message; catches match it', async () => {
    const h = await harness();
    const failed = await run(h, `{ script: 'echo partial; echo "disk full" >&2; exit 3' }`);
    expect(failed.state).toBe('error');
    expect(failed.err).toEqual({ ecode: 'shell.exit', message: 'the script exited with code 3: disk full' });
    expect(failed.act.data).toMatchObject({ exit_code: 3, stderr: 'disk full\n', data: 'partial\n' });
    const caught = await run(h, `{ script: 'exit 7' }`, `
        catches:
          - on: shell.exit
            steps: [ { id: fix, acts: [ { uses: acts.core.msg, key: handled } ] } ]`);
    expect(caught.state).toBe('completed');
    expect(caught.act.data.exit_code).toBe(7);
    expect(h.find({ key: 'handled', state: 'completed' })).toHaveLength(1);
  });

  it('the time limit kills the whole process group: shell.timeout, and what the script started is gone too', async () => {
    const h = await harness();
    const { err, pid } = await run(h, `{ script: 'sleep 60 & echo $! > child.pid; sleep 60', timeout: 0.5 }`);
    expect(err).toMatchObject({ ecode: 'shell.timeout', message: expect.stringMatching(/longer than its timeout of 0.5 s/) });
    const child = Number(readFileSync(path.join(h.root, pid, 'child.pid'), 'utf8'));
    await eventually(() => !running(child), 'the background sleep was killed', 500);
  });

  it('a script that exits leaves nothing running behind it', async () => {
    const h = await harness();
    const { state, pid } = await run(h, `{ script: 'sleep 60 > /dev/null & echo $! > child.pid' }`);
    expect(state).toBe('completed');
    const child = Number(readFileSync(path.join(h.root, pid, 'child.pid'), 'utf8'));
    await eventually(() => !running(child), 'the background sleep was killed', 500);
  });

  it('an act closed while its script runs (its process aborted) has its script killed', async () => {
    const h = await harness();
    await h.deploy(model(`{ script: 'echo $$ > script.pid; sleep 60', timeout: 120 }`));
    const { pid } = await h.engine.procs.start('sh', {});
    const file = path.join(h.root, pid, 'script.pid');
    const script = await eventually(() => (existsSync(file) && Number(readFileSync(file, 'utf8'))) || undefined, 'the script started', 1500);
    await h.engine.procs.abort(pid);
    await eventually(() => !running(script), 'the script was killed', 500);
    await h.settle();
    expect((await h.proc(pid)).state).toBe('aborted');
  });

  it('stdout above max_bytes kills the script: shell.too_large', async () => {
    const h = await harness();
    const { err } = await run(h, `{ script: 'yes | head -c 100000; sleep 60', max_bytes: 1000 }`);
    expect(err).toMatchObject({ ecode: 'shell.too_large', message: expect.stringMatching(/more than its max_bytes of 1000 bytes/) });
  });
});

describe('acts.app.shell environment and directory', () => {
  it("gets PATH, HOME, LANG, TMPDIR, ACTS_PID and the act's env — never a variable of the server", async () => {
    process.env.ACTS_TEST_SERVER_SECRET = 'hunter2';
    try {
      const h = await harness();
      const { act, pid } = await run(h, `{ script: 'env', env: { GREETING: 'hi {{ name }}', N: 3 } }`);
      const env = Object.fromEntries((act.data.data as string).split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
      const dir = path.join(h.root, pid);
      expect(env).toMatchObject({ GREETING: 'hi world', N: '3', HOME: dir, TMPDIR: dir, ACTS_PID: pid, LANG: 'C.UTF-8' });
      expect(env.PATH).toMatch(/\/usr\/bin/);
      expect(JSON.stringify(act.data)).not.toContain('hunter2');
      expect(Object.keys(env).filter((k) => !['GREETING', 'N', 'HOME', 'TMPDIR', 'ACTS_PID', 'LANG', 'PATH', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(k))).toEqual([]);
    } finally {
      delete process.env.ACTS_TEST_SERVER_SECRET;
    }
  });

  it("runs in <shell root>/<pid>, which the sweeper removes with the process's rows", async () => {
    const h = await harness({ sweepAfterSecs: 0 });
    const { act, pid } = await run(h, `{ script: 'pwd; echo kept > note.txt' }`);
    const dir = path.join(h.root, pid);
    expect(act.data.data).toBe(dir);
    expect(readFileSync(path.join(dir, 'note.txt'), 'utf8')).toBe('kept\n');
    await h.tick(1000);
    await h.tick(1000);
    await expect(h.proc(pid)).rejects.toMatchObject({ code: 'process.not_found' });
    expect(existsSync(dir)).toBe(false);
  });

  it("a process with a workdir (ACTS_WORKDIR_ROOT) runs its scripts there", async () => {
    const workdirs = scratch();
    const h = await harness({ workdirRoot: workdirs });
    const { act, pid } = await run(h, `{ script: pwd }`);
    expect(act.data.data).toBe(path.join(workdirs, pid));
    expect(existsSync(path.join(h.root, pid))).toBe(false);
  });

  it('a script that waits holds no lane: another process starts and ends meanwhile, on one lane', async () => {
    const h = await harness({ schedulerWorkers: 1 });
    const gate = path.join(scratch(), 'go');
    await h.deploy(model(`{ script: 'while [ ! -f "${gate}" ]; do sleep 0.02; done; echo through', timeout: 120 }`));
    await h.deploy('id: quick\nsteps: [ { id: s1, acts: [ { uses: acts.transform.set, params: { x: 1 } } ] } ]');
    const waiting = await h.engine.procs.start('sh', {});
    const quick = await h.engine.procs.start('quick', {});
    await eventually(async () => (await h.proc(quick.pid)).state === 'completed', 'the other process completed', 1500);
    expect((await h.proc(waiting.pid)).state).toBe('running');
    writeFileSync(gate, '');
    await eventually(async () => (await h.proc(waiting.pid)).state === 'completed', 'the shell act finished', 1500);
    expect((await h.proc(waiting.pid)).tasks.find((t) => t.key === 'script')?.data.data).toBe('through');
  });
});

describe('acts.app.shell is off unless enabled', () => {
  it('deploy on a server without ACTS_SHELL_ENABLE is model.invalid with the problem model.package_off', async () => {
    const h = await createHarness();
    harnesses.push(h);
    const refused = h.deploy(model(`{ script: 'echo hi' }`));
    await expect(refused).rejects.toMatchObject({ code: 'model.invalid', details: [expect.objectContaining({ code: 'model.package_off', path: 'steps[0].acts[0].uses', message: expect.stringMatching(/ACTS_SHELL_ENABLE=1/) })] });
  });

  it('a model deployed while enabled runs on a server that has it off: the act fails with shell.disabled', async () => {
    const store = new MemoryStore();
    const on = await harness({ store: borrowed(store) });
    await on.deploy(model(`{ script: 'echo hi' }`));
    await on.close();
    harnesses.splice(harnesses.indexOf(on), 1);
    const off = await createHarness({ store: borrowed(store) });
    harnesses.push(off);
    const pid = await off.start('sh');
    const act = (await off.proc(pid)).tasks.find((t) => t.key === 'script');
    expect(act?.err).toMatchObject({ ecode: 'shell.disabled', message: expect.stringMatching(/ACTS_SHELL_ENABLE=1/) });
  });

  it('bad params are refused at deploy with the schema sentence: an unknown shell, an env name that is not a variable name', async () => {
    const h = await harness();
    await expect(h.deploy(model(`{ shell: zsh, script: 'echo' }`))).rejects.toMatchObject({ code: 'model.invalid', details: [expect.objectContaining({ code: 'model.invalid_params', message: expect.stringMatching(/\/shell must be one of "sh", "bash", "nu", "powershell"/) })] });
    await expect(h.deploy(model(`{ script: 'echo', env: { 'A-B': x } }`))).rejects.toMatchObject({ details: [expect.objectContaining({ code: 'model.invalid_params' })] });
    await expect(h.deploy(model(`{ scrip: 'echo' }`))).rejects.toMatchObject({ details: [expect.objectContaining({ code: 'model.invalid_params', message: expect.stringMatching(/must have required property 'script'/) })] });
  });
});
