/**
 * `npm run bench:replay`: the cost of time-travel replay (docs/replay.md) on a run of 10,000 tasks.
 *
 * - Studio side, on a synthetic run (BENCH_REPLAY_TASKS tasks, as many messages, 100 actions):
 *   building the events (once per history change), and one scrub step — each task's state at the
 *   moment (`tasksAt`) and the replay store reloaded with it (`RunStore.load`), which is what the
 *   page does before painting a new moment.
 * - Server side, unless BENCH_REPLAY_SERVER=0: a real run of a parallel act over 5,000 items plus
 *   an approval (10,002 tasks) on SQLite, then the latency of `processes.summary` (the page's
 *   first read), `history.run` and `history.variables` through the HTTP API.
 * Median and p99 of the runs are printed; nothing is asserted.
 */
import { performance } from 'node:perf_hooks';
import { RunStore, type RunMessage, type RunTask } from '../components/runs/run-store.ts';
import { historyEvents, tasksAt, type HistoryAction } from '../vocab/run-history.ts';
import { bigRunModel } from '../test/helpers/big-run-model.ts';
import { startTestServer } from '../test/helpers/server.ts';
import { measure, printTable, type Figure } from './stats.ts';

const TASKS = Number(process.env.BENCH_REPLAY_TASKS ?? 10_000);
const SERVER = process.env.BENCH_REPLAY_SERVER !== '0';
const T0 = 1_700_000_000_000;

function syntheticRun() {
  const tasks: RunTask[] = [{ tid: '$', nid: 'wf', kind: 'workflow', key: 'wf', name: 'wf', uses: '', state: 'completed', parent: null, start_time: T0, end_time: T0 + TASKS * 2 + 10, err: null }];
  for (let i = 1; i < TASKS; i++) {
    const start = T0 + i * 2;
    tasks.push({ tid: `t${i}`, nid: i % 2 ? 'spread' : `item${i}`, kind: 'act', key: `k${i}`, name: '', uses: i % 7 ? 'acts.transform.set' : 'acts.core.irq', state: 'completed', parent: '$', start_time: start, end_time: start + 3, err: null });
  }
  const messages: RunMessage[] = tasks.map((t, i) => ({ id: `m${i}`, tid: t.tid, nid: t.nid, key: t.key, name: t.name, type: t.kind, state: 'completed', create_time: t.end_time }));
  const actions: HistoryAction[] = Array.from({ length: 100 }, (_, i) => ({ id: `a${i}`, time: T0 + i * 100, actor: 'ada', action: 'task.complete', tid: `t${i * 70 + 7}`, result: 'ok', keys: [] }));
  const process = { pid: 'p', mid: 'm', state: 'completed', start_time: T0, end_time: tasks[0].end_time, err: null };
  return { tasks, messages, actions, process };
}

async function studioSide(): Promise<Figure[]> {
  const { tasks, messages, actions, process } = syntheticRun();
  const waits = (uses: string) => uses === 'acts.core.irq';
  const store = new RunStore();
  store.setNodeMap(new Map([['wf', 'workflow'], ['spread', 'act:spread']]));
  const span = process.end_time - process.start_time;
  return [
    await measure(`events of ${TASKS} tasks + messages + actions`, 20, () => {
      const started = performance.now();
      historyEvents(tasks, messages, actions);
      return performance.now() - started;
    }),
    await measure(`scrub step (tasksAt + RunStore.load), ${TASKS} tasks`, 50, (i) => {
      const t = process.start_time + ((Math.abs(i) * 7919) % span);
      const started = performance.now();
      store.load({ process: { ...process, state: 'running', end_time: 0 }, tasks: tasksAt(tasks, t, waits), messages: messages.filter((m) => m.create_time <= t) });
      return performance.now() - started;
    }),
  ];
}

async function serverSide(): Promise<Figure[]> {
  const t = await startTestServer();
  try {
    const items = Math.ceil((TASKS - 2) / 2);
    await t.as('designer').models.deploy.mutate({ source: bigRunModel('big') });
    const started = performance.now();
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'big', inputs: { items: Array.from({ length: items }, (_, i) => i) } });
    await t.engine.idle();
    const viewer = t.as('viewer');
    const { tasks } = await viewer.processes.summary.query({ pid });
    console.log(`server: ${tasks.length} tasks run in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const check = tasks.find((x) => x.key === 'check')!;
    const middle = Math.round((tasks[0].start_time + check.start_time) / 2);
    const timed = (name: string, call: () => Promise<unknown>) =>
      measure(name, 10, async () => {
        const at = performance.now();
        await call();
        return performance.now() - at;
      });
    return [
      await timed(`processes.summary (${tasks.length} tasks)`, () => viewer.processes.summary.query({ pid })),
      await timed('history.run', () => viewer.history.run.query({ pid })),
      await timed('history.variables (a moment, a task)', () => viewer.history.variables.query({ pid, at: middle, tid: check.tid })),
    ];
  } finally {
    await t.close();
  }
}

const figures = await studioSide();
if (SERVER) figures.push(...(await serverSide()));
printTable(figures);
