/** Workers that fail before their sandbox loads, in a row, after which the pool stops trying. */
const START_FAILURES = 3;

/**
 * The pool of code workers (stateful): user code of code acts runs on these threads, so the
 * engine's thread — the API, sockets, timers and the other lanes — never waits on it.
 *
 * Each worker is starting → idle ⇄ busy (one evaluation; its scope calls are answered here, from
 * the scope of the task the code runs for) → gone (it exited: its evaluation fails and a new
 * worker takes its place). Evaluations wait in FIFO order while every worker is busy. After
 * `close` every waiting or running evaluation fails with `engine.closed`.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { ActError, type ErrorCode } from '../errors.ts';
import type { CodeWorkerData, RunRequest, RunResult } from './code-worker-protocol.ts';
import { answerScopeCall, type ScopeCall } from './scope-calls.ts';
import type { EvalMode, SandboxLimits, ScriptScope } from './types.ts';

interface Evaluation {
  request: RunRequest;
  scope: ScriptScope;
  resolve(value: unknown): void;
  reject(err: ActError): void;
}

class CodeWorker {
  readonly ready: Promise<void>;
  busy: Evaluation | undefined;
  /** Set once its sandbox loaded. */
  started = false;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;

  constructor(
    limits: SandboxLimits,
    private readonly onFree: (worker: CodeWorker) => void,
    private readonly onGone: (worker: CodeWorker, err: ActError) => void,
  ) {
    const { port1, port2 } = new MessageChannel();
    const shared = new SharedArrayBuffer(4);
    this.port = port1;
    this.flag = new Int32Array(shared);
    const data: CodeWorkerData = { limits, callPort: port2 as unknown as CodeWorkerData['callPort'], flag: shared };
    this.worker = new Worker(new URL('./code-worker.mjs', import.meta.url), { workerData: data, transferList: [port2] });
    this.worker.unref();
    this.port.unref();
    this.port.on('message', (call: ScopeCall) => this.answer(call));
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', () => {
        this.started = true;
        resolve();
      });
      this.worker.once('error', reject);
    });
    this.ready.then(
      () => this.worker.on('message', (result: RunResult) => this.done(result)),
      () => undefined,
    );
    this.worker.on('error', (err) => this.gone(new ActError('script.error', `the code worker failed: ${err.message}`)));
    this.worker.on('exit', (code) => this.gone(new ActError('script.error', `the code worker stopped (exit code ${code})`)));
  }

  start(evaluation: Evaluation): void {
    this.busy = evaluation;
    this.worker.postMessage(evaluation.request);
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private answer(call: ScopeCall): void {
    const scope = this.busy?.scope;
    this.port.postMessage(scope ? answerScopeCall(scope, call) : { ok: false, message: 'no evaluation is running' });
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
  }

  private done(result: RunResult): void {
    const evaluation = this.busy;
    if (result.type !== 'done' || !evaluation || result.id !== evaluation.request.id) return;
    this.busy = undefined;
    if (result.ok) evaluation.resolve(result.value);
    else evaluation.reject(new ActError(result.error.code as ErrorCode, result.error.message, result.error.details));
    this.onFree(this);
  }

  private gone(err: ActError): void {
    const evaluation = this.busy;
    this.busy = undefined;
    evaluation?.reject(err);
    this.onGone(this, err);
  }
}

export class CodePool {
  private readonly workers: CodeWorker[] = [];
  private readonly idle: CodeWorker[] = [];
  private readonly waiting: Evaluation[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  /** Set when workers keep failing to start: every evaluation fails with it. */
  private broken: ActError | undefined;

  constructor(
    readonly size: number,
    private readonly limits: SandboxLimits,
    /** How an answer reaches the caller (a test may order them; default: as it comes). */
    private readonly deliver: <T>(answer: Promise<T>) => Promise<T> = (answer) => answer,
  ) {
    for (let i = 0; i < Math.max(1, size); i++) this.spawn();
  }

  /** Resolves once every worker has its sandbox loaded. */
  async ready(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ready));
  }

  /** Evaluates `source` on a worker for the task whose scope is given; rejects with an `ActError`. */
  evaluate(source: string, scope: ScriptScope, mode: EvalMode): Promise<unknown> {
    if (this.closed) return Promise.reject(new ActError('engine.closed', 'the engine is closed'));
    if (this.broken) return Promise.reject(this.broken);
    return this.deliver(
      new Promise((resolve, reject) => {
        this.waiting.push({ request: { id: this.nextId++, source, mode }, scope, resolve, reject });
        this.dispatch();
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closedError = new ActError('engine.closed', 'the engine is closed');
    for (const evaluation of this.waiting.splice(0)) evaluation.reject(closedError);
    const workers = this.workers.splice(0);
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private spawn(): void {
    const worker = new CodeWorker(
      this.limits,
      (free) => {
        this.idle.push(free);
        this.dispatch();
      },
      (dead, err) => this.replace(dead, err),
    );
    this.workers.push(worker);
    worker.ready.then(
      () => {
        if (this.closed || !this.workers.includes(worker)) return;
        this.idle.push(worker);
        this.dispatch();
      },
      () => undefined,
    );
  }

  private replace(dead: CodeWorker, err: ActError): void {
    const at = this.workers.indexOf(dead);
    if (at < 0 || this.closed) return;
    this.workers.splice(at, 1);
    const idleAt = this.idle.indexOf(dead);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    this.startFailures = dead.started ? 0 : this.startFailures + 1;
    if (this.startFailures >= START_FAILURES) {
      this.broken = new ActError('script.error', `code workers cannot start: ${err.message}`);
      for (const evaluation of this.waiting.splice(0)) evaluation.reject(this.broken);
      return;
    }
    this.spawn();
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.waiting.length > 0) this.idle.shift()!.start(this.waiting.shift()!);
  }
}
