/**
 * acts-worker: the typed client of remote workers (issue 13 item 6), for any Node program (20+,
 * global fetch). It imports nothing of the server: it speaks the long-poll protocol of
 * docs/server.md ("Remote workers") to `<url>/api/trpc/workers.*` with an API token. Erasable
 * TypeScript only (no enums or parameter properties), so Node runs it as it is where it strips
 * types (22.18+, 23.6+; 22.6+ with --experimental-strip-types), and with `tsx` on Node 20.
 *
 *   const worker = createWorker({ url, token, packages: ['ext.resize'], handler: async (job) => ({ width: 10 }) });
 *   worker.start(); … await worker.stop();
 *
 * Each of `concurrency` loops polls for one job, runs `handler(job)` while extending the lease
 * every third of it, then completes the act with the handler's result (its outputs) or fails it
 * with a thrown error's `ecode` (`WorkerError`, else `worker.failed`) and message. A job may come
 * more than once (a lease that lapsed, a worker that died): handlers should be idempotent.
 * States: created → started (loops polling) → stopping (no new poll; jobs in hand finish) → stopped.
 */

/** One act handed to a worker (the server's WorkerJob). */
export interface Job {
  lease: string;
  pid: string;
  tid: string;
  package: string;
  params: unknown;
  inputs: Record<string, unknown>;
  attempt: number;
  lease_until: number;
}

export type Outputs = Record<string, unknown>;

/** A failure with the code the act fails with (a model's `catches: [{ on: <ecode> }]` see it). */
export class WorkerError extends Error {
  readonly ecode: string;
  constructor(ecode: string, message: string) {
    super(message);
    this.ecode = ecode;
  }
}

/** An error answer of the server: its stable code (`worker.lease_lost`, `auth.unauthorized` …). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export interface WorkerOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** An API token (operator or admin). */
  token: string;
  packages: string[];
  handler: (job: Job) => Promise<Outputs | void> | Outputs | void;
  /** Jobs run at once (default 1). */
  concurrency?: number;
  /** Lease length asked for (default 30 s); extended every third of it while the handler runs. */
  leaseSecs?: number;
  /** How long one poll waits for a job (default 20 s, at most 30). */
  waitSecs?: number;
  /** Told of errors a loop survives (a failed poll, a lost lease); default: console.error. */
  onError?: (err: unknown) => void;
}

export interface Worker {
  start(): void;
  /** Stops polling and waits for the jobs in hand (a poll in flight is abandoned). */
  stop(): Promise<void>;
  /** Jobs completed or failed so far. */
  readonly done: number;
}

/** Calls one procedure of the protocol; its data, or an ApiError. */
export async function call<T>(url: string, token: string, procedure: string, input: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`${url.replace(/\/$/, '')}/api/trpc/workers.${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
    signal,
  });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string; data?: { code?: string } } };
  if (body.error) throw new ApiError(body.error.data?.code ?? 'internal', body.error.message, res.status);
  return body.result?.data as T;
}

/** Pause after a failed poll before the next. */
const BACKOFF_MS = 1000;

export function createWorker(options: WorkerOptions): Worker {
  const leaseSecs = options.leaseSecs ?? 30;
  const onError = options.onError ?? ((err: unknown) => console.error('acts-worker:', err instanceof Error ? err.message : err));
  const rpc = <T>(procedure: string, input: unknown, signal?: AbortSignal) => call<T>(options.url, options.token, procedure, input, signal);
  const stopping = new AbortController();
  let loops: Promise<void>[] = [];
  let done = 0;

  async function runJob(job: Job): Promise<void> {
    const extender = setInterval(() => void rpc('extend', { lease: job.lease, leaseSecs }).catch(onError), (leaseSecs * 1000) / 3);
    try {
      let outputs: Outputs | void;
      try {
        outputs = await options.handler(job);
      } catch (err) {
        const ecode = err instanceof WorkerError ? err.ecode : 'worker.failed';
        await rpc('fail', { lease: job.lease, ecode, message: err instanceof Error ? err.message : String(err) });
        return;
      }
      await rpc('complete', { lease: job.lease, outputs: outputs ?? {} });
    } finally {
      clearInterval(extender);
      done++;
    }
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let job: Job | null;
      try {
        ({ job } = await rpc<{ job: Job | null }>('poll', { packages: options.packages, waitSecs: options.waitSecs ?? 20, leaseSecs }, stopping.signal));
      } catch (err) {
        if (stopping.signal.aborted) return;
        onError(err);
        await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS));
        continue;
      }
      if (job) await runJob(job).catch(onError);
    }
  }

  return {
    start() {
      if (loops.length > 0) return;
      loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => loop());
    },
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
    get done() {
      return done;
    },
  };
}
