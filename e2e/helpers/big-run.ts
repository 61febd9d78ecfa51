/**
 * A run of 10,001 tasks for the speed figures (runs.spec.ts, run-replay.spec.ts): a parallel act
 * over 5,000 items (two tasks each), then the approval `check` (act id `check`) left waiting.
 */
import { bigRunModel } from '../../test/helpers/big-run-model.ts';
import type { Api } from './api.ts';
import { deployModel, startProcess, uniqueName } from './scene.ts';
import { expect } from './test.ts';

const ITEMS = 5000;

/** Deploys the model, starts the run and waits (up to `timeoutMs`) until its approval waits. */
export async function startBigRun(adminApi: Api, prefix: string, timeoutMs: number): Promise<{ pid: string; started: number }> {
  const mid = uniqueName(prefix);
  await deployModel(bigRunModel(mid));
  const started = Date.now();
  const { pid } = await startProcess(mid, { items: Array.from({ length: ITEMS }, (_, i) => i) });
  // A cheap poll (one message row) while the engine works.
  await expect
    .poll(async () => (await adminApi.messages.list.query({ pid, key: 'check', limit: 1 }).catch(() => ({ count: -1 }))).count, { timeout: timeoutMs, intervals: [2000] })
    .toBe(1);
  return { pid, started };
}
