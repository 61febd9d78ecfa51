/**
 * Runs one node of a model (one-node.ts) on a throw-away in-memory engine and reports how it went
 * (vocab/step-tests.ts `StepTestResult`). Nothing is deployed on any other engine and nothing is
 * stored; http acts do call out (the given HTTP policy applies), shell acts run when enabled.
 *
 * The run: deploy the generated workflow, start it, then repeat — wait until the engine is idle;
 * stop when the process ended; else answer every waiting act that has an answer (by act id or
 * key, in order); else jump the virtual clock to the next timeout; else stop `waiting`. Bounded
 * by a wall-clock limit (`timeout`) and a step budget (`process.step_budget`). The engine is
 * closed at the end in every case (a close that hangs is left behind after a short grace).
 */
import { ManualClock } from '../../engine/clock.ts';
import { ActError, errorMessage } from '../../engine/errors.ts';
import type { PackageMeta } from '../../engine/packages/types.ts';
import { isTerminalName } from '../../../vocab/states.ts';
import { STEP_TEST_LIMITS, type StepTestAnswer, type StepTestInput, type StepTestMessage, type StepTestResult, type WaitingAct } from '../../../vocab/step-tests.ts';
import { Engine, type EngineOptions } from '../engine.ts';
import type { TaskInfo } from '../info.ts';
import { deployChildren, SUBFLOW, type ModelSource } from './child-models.ts';
import { oneNodeWorkflow, type OneNode } from './one-node.ts';

export interface SandboxOptions {
  /** Wall-clock limit of the run (ms; default and cap in STEP_TEST_LIMITS). */
  limitMs?: number;
  /** What the test engine is built with besides its own clock, store and bounds. */
  engine?: Pick<EngineOptions, 'http' | 'shell' | 'secrets' | 'codeWorkers' | 'sandbox'>;
  /** Packages registered on the real engine (irq, msg, worker ones) the test engine must know too. */
  packages?: ReadonlyArray<Partial<PackageMeta> & { name: string; run_as: PackageMeta['run_as'] }>;
  /** The models the node's subflow acts call (child-models.ts); without it they are not deployed. */
  models?: ModelSource;
}

const CLOSE_GRACE_MS = 2_000;

type Ended = { timedOut: true } | { timedOut: false };

/** `work`, or `{ timedOut: true }` once `deadline` (epoch ms) passed. */
async function until(work: Promise<unknown>, deadline: number): Promise<Ended> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Ended>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then((): Ended => ({ timedOut: false })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Hands out the answers of a run: per act (id or key), its list in order. */
class Answers {
  private readonly used = new Map<string, number>();
  private readonly given: NonNullable<StepTestInput['answers']>;
  constructor(given: StepTestInput['answers']) {
    this.given = given ?? {};
  }

  next(task: TaskInfo): StepTestAnswer | undefined {
    const name = Object.hasOwn(this.given, task.nid) ? task.nid : Object.hasOwn(this.given, task.key) ? task.key : undefined;
    if (name === undefined) return undefined;
    const list = ([] as StepTestAnswer[]).concat(this.given[name]);
    const n = this.used.get(name) ?? 0;
    if (n >= list.length) return undefined;
    this.used.set(name, n + 1);
    return list[n];
  }
}

function messageOf(m: { type: string; state: string; key: string; nid: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }): StepTestMessage {
  const { type, state, key, nid, inputs, outputs } = m;
  return { type, state, key, nid, inputs, outputs };
}

function invalid(node: string, err: unknown, started: number): StepTestResult {
  const ecode = ActError.is(err) ? err.code : 'internal';
  return { node, kind: 'step', end: 'invalid', state: 'none', outputs: {}, vars: {}, error: { ecode, message: errorMessage(err) }, messages: [], waiting: [], ms: Date.now() - started };
}

function waitingAct(t: TaskInfo): WaitingAct {
  return { node: t.nid, key: t.key, tid: t.tid, uses: t.uses, params: t.params };
}

/** The acts waiting in the run's processes (a subflow act that waits for its child is not one). */
async function waitingActs(engine: Engine, pids: readonly string[]): Promise<TaskInfo[]> {
  const waiting: TaskInfo[] = [];
  for (const pid of pids) {
    for (const t of await engine.tasks.list(pid)) if (t.kind === 'act' && t.state === 'interrupted' && t.uses !== SUBFLOW) waiting.push(t);
  }
  return waiting;
}

async function closeSoon(engine: Engine): Promise<void> {
  await until(engine.close().catch(() => undefined), Date.now() + CLOSE_GRACE_MS);
}

/** Runs `input.node` of the model `source` alone; never throws for the test's own failures. */
export async function runOneNode(source: string, input: StepTestInput, options: SandboxOptions = {}): Promise<StepTestResult> {
  const started = Date.now();
  let target: OneNode;
  try {
    target = oneNodeWorkflow(source, input.node, input.inputs ?? {});
  } catch (err) {
    if (ActError.is(err)) return invalid(input.node, err, started);
    throw err;
  }
  const limitMs = Math.min(options.limitMs ?? STEP_TEST_LIMITS.defaultMs, STEP_TEST_LIMITS.maxMs);
  const deadline = started + limitMs;
  const clock = new ManualClock(Date.now());
  const engine = await Engine.create({ ...options.engine, clock, autoTick: false, recover: false, stepBudget: STEP_TEST_LIMITS.stepBudget });
  try {
    for (const pkg of options.packages ?? []) await engine.packages.register(pkg);
    try {
      if (options.models) await deployChildren(engine, target.source, options.models);
      await engine.models.deploy(target.source);
    } catch (err) {
      if (ActError.is(err)) return { ...invalid(target.nid, err, started), kind: target.kind };
      throw err;
    }
    const messages: StepTestMessage[] = [];
    /** The test's process and its subflow children, in the order they appeared. */
    const pids: string[] = [];
    engine.on('message', (m) => {
      if (!pids.includes(m.pid)) pids.push(m.pid);
      if (messages.length < STEP_TEST_LIMITS.messages) messages.push(messageOf(m));
    });
    const { pid } = await engine.procs.start(target.mid, {});
    const answers = new Answers(input.answers);
    const answered = new Set<string>();
    let refusal: { ecode: string; message: string } | null = null;
    let timedOut = false;
    for (;;) {
      if ((await until(engine.idle(), deadline)).timedOut) {
        timedOut = true;
        break;
      }
      const detail = await engine.procs.get(pid);
      if (isTerminalName(detail.state)) break;
      let acted = false;
      for (const task of await waitingActs(engine, pids)) {
        if (answered.has(`${task.pid}/${task.tid}`)) continue;
        const answer = answers.next(task);
        if (!answer) continue;
        answered.add(`${task.pid}/${task.tid}`);
        acted = true;
        const action = answer.action ?? 'complete';
        await engine.do({ pid: task.pid, tid: task.tid, action, options: answer.options ?? {} }).catch((err: unknown) => {
          refusal = { ecode: ActError.is(err) ? err.code : 'action.refused', message: `the answer to '${task.nid}' (${action}) was refused: ${errorMessage(err)}` };
        });
      }
      if (acted) continue;
      const due = engine.nextTimeoutAt();
      if (due === null) break;
      clock.set(Math.max(clock.now(), due));
      await engine.tick();
    }
    return await resultOf(engine, pid, target, { messages, pids, timedOut, limitMs, refusal, started });
  } finally {
    await closeSoon(engine);
  }
}

interface RunFacts {
  messages: StepTestMessage[];
  pids: string[];
  timedOut: boolean;
  limitMs: number;
  refusal: { ecode: string; message: string } | null;
  started: number;
}

async function resultOf(engine: Engine, pid: string, target: OneNode, facts: RunFacts): Promise<StepTestResult> {
  const detail = await engine.procs.get(pid);
  const node = detail.tasks.find((t) => t.nid === target.nid);
  const root = detail.tasks.find((t) => t.kind === 'workflow');
  const waiting = (await waitingActs(engine, facts.pids)).map(waitingAct);
  const base = { node: target.nid, kind: target.kind, state: node?.state ?? 'none', outputs: node?.outputs ?? {}, vars: root?.data ?? {}, messages: facts.messages, waiting, ms: Date.now() - facts.started };
  if (facts.timedOut) {
    return { ...base, end: 'timeout', error: { ecode: 'steptest.timeout', message: `the step test ran longer than its limit of ${facts.limitMs} ms` } };
  }
  if (!isTerminalName(detail.state)) {
    const names = waiting.map((w) => `'${w.key}'`).join(', ');
    const error = facts.refusal ?? { ecode: 'steptest.waiting', message: `waiting for an answer to ${names || 'an act'}: give it in the test's answers` };
    return { ...base, end: 'waiting', error };
  }
  const error = node?.err ?? detail.err;
  const failed = node?.state === 'error' || detail.state === 'error';
  return { ...base, end: failed ? 'error' : 'completed', error: failed ? error : null };
}
