/**
 * An engine process killed (SIGKILL) while an `acts.app.shell` script runs (issue 13, item 2): the
 * script dies with it (its supervisor sees the engine's pipe close and kills the group), and a
 * new engine on the same SQLite database runs the script again — at least once, never lost, never
 * two copies at once — and the act completes.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcDetail } from '../server/runtime/info.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';
import { eventually } from './helpers/eventually.ts';
import { running } from './helpers/os-process.ts';

const SCRIPT = `
id: sh
inputs: { log: '', gate: '' }
steps:
  - id: s1
    acts:
      - uses: acts.app.shell
        key: script
        params:
          script: 'echo $$ >> "$LOG"; while [ ! -f "$GATE" ]; do sleep 0.05; done; echo through'
          env: { LOG: '{{ log }}', GATE: '{{ gate }}' }
          timeout: 600
`;

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function host(url: string, root: string): Promise<EngineProcess> {
  const h = new EngineProcess(url, undefined, { ACTS_SHELL_ENABLE: '1', ACTS_SHELL_ROOT: root });
  cleanup.push(() => h.kill());
  await Promise.race([h.ready, h.exited.then(() => Promise.reject(new Error(`host died: ${h.stderr}`)))]);
  return h;
}

function runs(log: string): number[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

describe('acts.app.shell and a crash (SQLite)', { timeout: HOST_TEST_BUDGET_MS }, () => {
  it('killed while its script runs: the script dies too, the restart runs it again and the act completes', async () => {
    const db: TestDatabase = await createTestDatabase('sqlite');
    cleanup.push(() => db.drop());
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'acts-shell-crash-')));
    const log = path.join(dir, 'runs.log');
    const gate = path.join(dir, 'go');

    const first = await host(db.url, path.join(dir, 'root'));
    await first.send('deploy', { source: SCRIPT });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'sh', options: { log, gate } });
    await eventually(() => runs(log).length === 1, 'the script started', 3000);
    expect((await first.kill()) as { signal: string }).toMatchObject({ signal: 'SIGKILL' });
    const [cut] = runs(log);
    await eventually(() => !running(cut!), 'the cut-off script died with its engine', 500);

    const second = await host(db.url, path.join(dir, 'root'));
    await eventually(() => runs(log).length === 2, 'the restart ran the script again', 3000);
    writeFileSync(gate, '');
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.key === 'script')?.data).toMatchObject({ data: 'through', exit_code: 0 });
    await second.stop();
  });
});
