/**
 * Test harness for engine scenarios: an engine on a MemoryStore with a manual clock and no timer,
 * one channel recording every message and process event, and helpers that find an act's latest
 * message by key and answer it. Tests await `settle()` (engine idle), never sleep.
 */
import { ManualClock } from '../../server/engine/clock.ts';
import { Engine, type EngineOptions } from '../../server/runtime/engine.ts';
import type { ProcDetail } from '../../server/runtime/info.ts';
import type { Message } from '../../server/engine/messages.ts';
import type { Vars } from '../../server/engine/model/types.ts';
import type { Store } from '../../server/store/contract/types.ts';

export interface Harness {
  engine: Engine;
  clock: ManualClock;
  messages: Message[];
  started: Message[];
  completed: Message[];
  errored: Message[];
  deploy(yaml: string): Promise<void>;
  start(mid: string, inputs?: Vars): Promise<string>;
  settle(): Promise<void>;
  find(filter: Partial<Pick<Message, 'key' | 'state' | 'type' | 'pid' | 'nid'>>): Message[];
  /** The latest `created` message of an act key. */
  created(key: string, pid?: string): Message;
  act(action: string, key: string, options?: Vars, pid?: string): Promise<void>;
  proc(pid: string): Promise<ProcDetail>;
  /** States of every task of a node, in creation order. */
  states(pid: string, nid: string): Promise<string[]>;
  tick(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A view of a shared test store that the engine cannot close (the test file owns it). */
export function borrowed(store: Store): Store {
  return Object.create(store, { close: { value: async () => undefined } }) as Store;
}

export async function createHarness(options: EngineOptions = {}): Promise<Harness> {
  const clock = new ManualClock();
  const engine = await Engine.create({ clock, autoTick: false, tickIntervalSecs: 1, ...options });
  const messages: Message[] = [];
  const started: Message[] = [];
  const completed: Message[] = [];
  const errored: Message[] = [];
  engine
    .channel({ id: 'harness' })
    .onMessage((m) => void messages.push(m))
    .onStart((m) => void started.push(m))
    .onComplete((m) => void completed.push(m))
    .onError((m) => void errored.push(m));

  const settle = () => engine.idle();
  const find: Harness['find'] = (f) =>
    messages.filter((m) => Object.entries(f).every(([k, v]) => (m as unknown as Record<string, unknown>)[k] === v));
  const created = (key: string, pid?: string) => {
    const list = find({ key, state: 'created', type: 'act', ...(pid ? { pid } : {}) });
    const last = list[list.length - 1];
    if (!last) throw new Error(`no created message for act '${key}'`);
    return last;
  };

  return {
    engine,
    clock,
    messages,
    started,
    completed,
    errored,
    deploy: async (yaml) => {
      await engine.models.deploy(yaml);
    },
    start: async (mid, inputs = {}) => {
      const proc = await engine.procs.start(mid, inputs);
      await settle();
      return proc.pid;
    },
    settle,
    find,
    created,
    act: async (action, key, opts = {}, pid) => {
      const m = created(key, pid);
      await engine.do({ pid: m.pid, tid: m.tid, action, options: opts });
      await settle();
    },
    proc: (pid) => engine.procs.get(pid),
    states: async (pid, nid) => (await engine.procs.get(pid)).tasks.filter((t) => t.nid === nid).map((t) => t.state),
    tick: async (ms) => {
      clock.advance(ms);
      await engine.tick();
      await settle();
    },
    close: () => engine.close(),
  };
}
