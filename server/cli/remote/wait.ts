/**
 * `--wait`: polls a process until it finishes, with back-off (100 ms doubling to 2 s), and ends
 * like `acts run`: a final line `{"event":"complete"|"error","state","outputs","error"}`, exit 0
 * (completed or aborted) or 1 (error). When `--wait-timeout` passes first, the final line is
 * `{"event":"waiting",…,"tasks":[…open interrupts]}` and the exit code 3. A few retryable
 * failures in a row (a restarting server) are ridden out; more end the wait with that failure.
 */
import { isTerminal, type TaskState } from '../../../vocab/states.ts';
import { EXIT } from '../errors.ts';
import type { ApiClient } from './client.ts';
import type { Connection } from './connection.ts';
import type { RemoteFailure } from './failure.ts';
import { translate } from './translate.ts';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2000;
const MAX_RETRYABLE_IN_A_ROW = 5;

export interface WaitOptions {
  /** Give up after this long (ms); undefined waits until the end. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Detail = Awaited<ReturnType<ApiClient['processes']['get']['query']>>;

function finalLine(detail: Detail, event: 'complete' | 'error' | 'waiting'): Record<string, unknown> {
  const { state, outputs, err } = detail.process;
  return { event, state, outputs, error: err };
}

/** Waits for process `pid` to finish; prints the final line; returns the exit code. */
export async function waitForEnd(
  client: ApiClient,
  connection: Connection,
  pid: string,
  print: (line: string) => void,
  options: WaitOptions = {},
): Promise<number> {
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const deadline = options.timeoutMs === undefined ? Infinity : now() + options.timeoutMs;
  let delay = FIRST_DELAY_MS;
  let failures = 0;
  for (;;) {
    let detail: Detail | undefined;
    let failure: RemoteFailure | undefined;
    try {
      // a cheap state read while it runs; the whole process only for the final line
      const { state } = await client.processes.state.query({ pid });
      if (isTerminal(state as TaskState) || deadline - now() <= 0) detail = await client.processes.get.query({ pid });
      failures = 0;
    } catch (err) {
      failure = translate(err, connection);
      if (!failure.retryable || ++failures >= MAX_RETRYABLE_IN_A_ROW) throw failure;
    }
    if (detail && isTerminal(detail.process.state as TaskState)) {
      const failed = detail.process.state === 'error';
      print(JSON.stringify(finalLine(detail, failed ? 'error' : 'complete')));
      return failed ? EXIT.processError : EXIT.complete;
    }
    const left = deadline - now();
    if (left <= 0 && failure) throw failure;
    if (left <= 0 && detail) {
      const tasks = detail.tasks
        .filter((t) => t.kind === 'act' && t.state === 'interrupted')
        .map((t) => ({ key: t.key, tid: t.tid, nid: t.nid, pid: t.pid }));
      print(JSON.stringify({ ...finalLine(detail, 'waiting'), tasks }));
      return EXIT.waiting;
    }
    await sleep(Math.max(0, Math.min(delay, left)));
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
