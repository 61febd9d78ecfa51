/**
 * A code worker: one QuickJS sandbox on its own thread, running one evaluation at a time for the
 * engine (code-pool.ts). The script's scope stays on the engine's thread; every scope call is
 * asked there synchronously (post on the call port, wait on the shared flag, take the answer).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { ActError } from '../errors.ts';
import type { CodeWorkerData, RunRequest, RunResult } from './code-worker-protocol.ts';
import { createSandbox } from './quickjs.ts';
import { scopeOverCalls, type ScopeAnswer, type ScopeCall } from './scope-calls.ts';

/** How long a scope call may wait for the engine before the evaluation gives up. */
const ANSWER_WAIT_MS = 60_000;

/** The nice value of a code worker's thread: user code yields the CPU to the engine's thread. */
const WORKER_NICE = 10;

/**
 * Lowers this thread's scheduling priority (Linux: `setpriority` on the thread id, read from
 * /proc/thread-self), so code workers use idle cores but the API, sockets and timers on the
 * engine's thread get the CPU first. Elsewhere the thread keeps the default priority.
 */
function yieldToEngine(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // not Linux, or not allowed: the default priority
  }
}

yieldToEngine();
const data = workerData as CodeWorkerData;
const port = data.callPort as unknown as MessagePort;
const flag = new Int32Array(data.flag);

function ask(call: ScopeCall): unknown {
  port.postMessage(call);
  if (Atomics.wait(flag, 0, 0, ANSWER_WAIT_MS) === 'timed-out') throw new Error('the engine did not answer a scope call');
  Atomics.store(flag, 0, 0);
  const received = receiveMessageOnPort(port);
  if (!received) throw new Error('a scope call got no answer');
  const answer = received.message as ScopeAnswer;
  if (!answer.ok) throw new Error(answer.message);
  return answer.value;
}

const scope = scopeOverCalls(ask);
const sandbox = await createSandbox(data.limits);

function run(request: RunRequest): RunResult {
  try {
    const value = sandbox.evaluate(request.source, scope, request.mode);
    return { type: 'done', id: request.id, ok: true, value };
  } catch (err) {
    const error = ActError.is(err)
      ? { code: err.code, message: err.message, details: err.details }
      : { code: 'script.error', message: err instanceof Error ? err.message : String(err) };
    return { type: 'done', id: request.id, ok: false, error };
  }
}

parentPort!.on('message', (request: RunRequest) => parentPort!.postMessage(run(request)));
parentPort!.postMessage({ type: 'ready' } satisfies RunResult);
