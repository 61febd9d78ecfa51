/**
 * The run history model (vocab/run-history.ts): task states at three moments of a recorded run,
 * an open act of a waiting package drawn interrupted, the events window around a moment and the
 * steps to the next and previous event, and the variables visible at a moment.
 */
import { describe, expect, it } from 'vitest';
import {
  eventsAround,
  eventsBetween,
  historyEvents,
  processStateAt,
  stepTime,
  taskDataAt,
  taskStateAt,
  tasksAt,
  variablesAt,
  type HistoryAction,
  type HistoryMessage,
  type TaskWithVars,
} from '../vocab/run-history.ts';

const task = (tid: string, kind: string, start: number, end: number, state: string, more: Partial<TaskWithVars> = {}): TaskWithVars => ({
  tid,
  nid: tid,
  kind,
  key: tid,
  name: tid,
  parent: tid === '$' ? null : '$',
  state,
  start_time: start,
  end_time: end,
  data: {},
  inputs: {},
  outputs: {},
  ...more,
});

// A run: the root 100–400; a code act 110–150 sets total; an approval (irq) 150–300 sets approved;
// a second code act 300–310 that fails; a last approval started at 310, still open.
const tasks: TaskWithVars[] = [
  task('$', 'workflow', 100, 0, 'running', { inputs: { amount: 5 }, data: { amount: 5, total: 50, approved: true } }),
  task('calc', 'act', 110, 150, 'completed', { uses: 'acts.transform.code', inputs: { amount: 5 }, data: { amount: 5, total: 50 }, outputs: { total: 50 } }),
  task('ask', 'act', 150, 300, 'completed', { uses: 'acts.core.irq', inputs: { total: 50 }, data: { total: 50, approved: true }, outputs: { approved: true } }),
  task('boom', 'act', 300, 310, 'error', { uses: 'acts.transform.code', outputs: { total: -1 }, err: { ecode: 'E1', message: 'no' } }),
  task('again', 'act', 310, 0, 'interrupted', { uses: 'acts.core.irq' }),
];
const waits = (uses: string) => uses === 'acts.core.irq';
const messages: HistoryMessage[] = [{ id: 'm1', tid: 'ask', type: 'act', key: 'ask', name: 'ask', state: 'completed', create_time: 150 }];
const actions: HistoryAction[] = [{ id: 'a1', time: 299, actor: 'Ada', action: 'task.complete', tid: 'ask', result: 'ok', keys: ['approved'] }];

describe('task states at a moment', () => {
  it('before a task starts it is absent; while it runs it is running (interrupted for a waiting package); from its end it has its end state', () => {
    const at = (t: number) => Object.fromEntries(tasksAt(tasks, t, waits).map((x) => [x.tid, x.state]));
    expect(at(120)).toEqual({ $: 'running', calc: 'running' });
    expect(at(200)).toEqual({ $: 'running', calc: 'completed', ask: 'interrupted' });
    expect(at(305)).toEqual({ $: 'running', calc: 'completed', ask: 'completed', boom: 'running' });
    expect(at(400)).toEqual({ $: 'running', calc: 'completed', ask: 'completed', boom: 'error', again: 'interrupted' });
  });

  it('a task not ended by the moment has no end time and no error then; an ended one is the recorded task itself', () => {
    const [, calc, , boom] = tasksAt(tasks, 305, waits);
    expect(calc).toBe(tasks[1]);
    expect(boom).toMatchObject({ state: 'running', end_time: 0, err: null });
    expect(tasksAt(tasks, 310, waits)[3]).toBe(tasks[3]);
  });

  it('without a waiting rule an open act is running; a task recorded terminal without an end time ended at its start', () => {
    expect(taskStateAt(tasks[2], 200)).toBe('running');
    expect(taskStateAt(task('s', 'act', 50, 0, 'skipped'), 50)).toBe('skipped');
    expect(taskStateAt(task('s', 'act', 50, 0, 'skipped'), 49)).toBeNull();
  });

  it('the process: absent before its start, running until its end, then its end state', () => {
    const proc = { state: 'completed', start_time: 100, end_time: 400 };
    expect([processStateAt(proc, 99), processStateAt(proc, 100), processStateAt(proc, 399), processStateAt(proc, 400)]).toEqual([null, 'running', 'running', 'completed']);
    expect(processStateAt({ state: 'running', start_time: 100, end_time: 0 }, 5000)).toBe('running');
  });
});

describe('events', () => {
  const events = historyEvents(tasks, messages, actions);

  it('are ordered by time; in one millisecond the ends of earlier tasks, the starts, then messages and actions', () => {
    expect(events.map((e) => e.key)).toEqual(['s:$', 's:calc', 'e:calc', 's:ask', 'm:m1', 'a:a1', 'e:ask', 's:boom', 'e:boom', 's:again']);
    const instant = historyEvents([task('x', 'act', 500, 500, 'completed')], [], []);
    expect(instant.map((e) => e.key)).toEqual(['s:x', 'e:x']);
  });

  it('the window around a moment holds the ones at or before it and the ones after', () => {
    const around = eventsAround(events, 299, 2, 2);
    expect(around.events.map((e) => e.key)).toEqual(['m:m1', 'a:a1', 'e:ask', 's:boom']);
    expect(around.past).toBe(2);
    expect(eventsAround(events, 0, 3, 1)).toEqual({ events: [events[0]], past: 0 });
    expect(eventsBetween(events, 150, 299).map((e) => e.key)).toEqual(['e:calc', 's:ask', 'm:m1', 'a:a1']);
  });

  it('steps to the next and the previous event time', () => {
    expect(stepTime(events, 150, 1)).toBe(299);
    expect(stepTime(events, 150, -1)).toBe(110);
    expect(stepTime(events, 310, 1)).toBeNull();
    expect(stepTime(events, 100, -1)).toBeNull();
  });
});

describe('variables at a moment', () => {
  it('are the start inputs, then the outputs of the tasks completed by then in end order (an errored task adds nothing)', () => {
    expect(variablesAt({ amount: 5 }, tasks, 120)).toEqual({ amount: 5 });
    expect(variablesAt({ amount: 5 }, tasks, 150)).toEqual({ amount: 5, total: 50 });
    expect(variablesAt({ amount: 5 }, tasks, 400)).toEqual({ amount: 5, total: 50, approved: true });
  });

  it('a later end wins a key set twice', () => {
    const twice = [task('a', 'act', 1, 5, 'completed', { outputs: { x: 'late' } }), task('b', 'act', 1, 3, 'completed', { outputs: { x: 'early' } })];
    expect(variablesAt({}, twice, 4)).toEqual({ x: 'early' });
    expect(variablesAt({}, twice, 5)).toEqual({ x: 'late' });
  });

  it("a task's own data: none before its start, its inputs while it runs, its data once it ended", () => {
    expect(taskDataAt(tasks[2], 149)).toBeNull();
    expect(taskDataAt(tasks[2], 200)).toEqual({ total: 50 });
    expect(taskDataAt(tasks[2], 300)).toEqual({ total: 50, approved: true });
  });
});
