/**
 * A small engine host for crash tests: an Engine on the store named by ACTS_STORE, driven by JSON
 * lines on stdin, answering with JSON lines on stdout. ACTS_CRASH_AT=<fault point>[#<n>] makes
 * the process kill itself with SIGKILL the n-th time (default 1st) the engine reaches that point.
 * ACTS_TICK_SECS=<s> runs the engine's timer (autoTick) at that interval, ACTS_LEASE_MS sets the
 * instance lease, ACTS_INSTANCE the instance id (several hosts on one PostgreSQL database),
 * ACTS_QUEUE_CAP a one-lane queue bound (overflow goes to the outbox), ACTS_CODE_WORKERS the code
 * worker threads (default none: code acts run on the engine's thread), ACTS_SHELL_ENABLE=1 runs
 * shell acts (in ACTS_SHELL_ROOT).
 *
 * Commands: {id, cmd: 'deploy', source} | {id, cmd: 'start', mid, options[, key]} (key: idempotency key) |
 *           {id, cmd: 'act', pid, tid, action, options} | {id, cmd: 'proc', pid} | {id, cmd: 'idle'} | {id, cmd: 'stats'}
 * Replies:  {id, ok: true, result} | {id, ok: false, error}; messages: {message: {...}}
 */
import { Engine } from '../../server/runtime/engine.ts';
import { openStore } from '../../server/store/open-store.ts';
import { serveCommands, writeLine, type Command } from './json-lines.ts';

const [point, nth] = (process.env.ACTS_CRASH_AT ?? '').split('#');
let remaining = Number(nth ?? 1);

function faults(at: string): void {
  if (!point || at !== point) return;
  remaining--;
  if (remaining === 0) process.kill(process.pid, 'SIGKILL');
}


const store = await openStore(process.env.ACTS_STORE ?? 'memory:');
const tickSecs = Number(process.env.ACTS_TICK_SECS ?? 0);
const engine = await Engine.create({
  store,
  faults,
  autoTick: tickSecs > 0,
  tickIntervalSecs: tickSecs > 0 ? tickSecs : undefined,
  leaseMs: process.env.ACTS_LEASE_MS ? Number(process.env.ACTS_LEASE_MS) : undefined,
  instanceId: process.env.ACTS_INSTANCE || undefined,
  schedulerQueueCap: process.env.ACTS_QUEUE_CAP ? Number(process.env.ACTS_QUEUE_CAP) : undefined,
  schedulerWorkers: process.env.ACTS_QUEUE_CAP ? 1 : undefined,
  codeWorkers: process.env.ACTS_CODE_WORKERS ? Number(process.env.ACTS_CODE_WORKERS) : undefined,
  shell: { enabled: process.env.ACTS_SHELL_ENABLE === '1', root: process.env.ACTS_SHELL_ROOT || undefined },
});
engine.on('message', (m) => writeLine({ message: { key: m.key, state: m.state, type: m.type, pid: m.pid, tid: m.tid } }));
writeLine({ ready: true });

async function run(c: Command): Promise<unknown> {
  switch (c.cmd) {
    case 'deploy':
      return engine.models.deploy(c.source as string);
    case 'start':
      return engine.procs.start(c.mid as string, (c.options ?? {}) as Record<string, unknown>, { idempotencyKey: c.key as string | undefined });
    case 'act':
      return engine.do({ pid: c.pid as string, tid: c.tid as string, action: c.action as string, options: (c.options ?? {}) as Record<string, unknown> });
    case 'proc':
      return engine.procs.get(c.pid as string);
    case 'idle':
      return engine.idle();
    case 'stats':
      return engine.stats();
    default:
      throw new Error(`unknown command ${c.cmd}`);
  }
}

await serveCommands(run);
await engine.close();
