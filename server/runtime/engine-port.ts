/**
 * The engine's port (engine/context.ts) carried out by the runtime's parts (runtime.ts): each
 * effect the workflow semantics ask for goes to the part that owns it — task rows to the job's
 * batch, executions to the lanes or the outbox, expressions to the trials and the code workers,
 * messages to the publisher, other processes to subflow routing, an ended process out of the
 * resident set. Only delegation lives here.
 */
import type { EngineContext } from '../engine/context.ts';
import type { Runtime } from './runtime-types.ts';
import { abortChildOf, returnToParent, startChildProcess } from './subflow-routing.ts';

export function enginePort(rt: Omit<Runtime, 'port'>): EngineContext {
  const { tasks, executions, expressions, publisher, jobs, clock } = rt;
  const port: EngineContext = {
    registry: rt.registry,
    log: rt.log,
    snapshots: rt.snapshots,
    trials: expressions.trials,
    codePool: rt.codePool,
    http: rt.http,
    shell: rt.shell,
    state: rt.state,
    secrets: rt.secrets,
    incidents: rt.config.incidents,
    get batchSeq() {
      return rt.batch.seq;
    },
    now: () => clock.now(),
    newId: rt.newId,
    fault: rt.fault,
    modelVersion: (mid, ver) => rt.links.modelVersion(mid, ver),

    createTask: (proc, node, prev, parent, isHook) => tasks.createTask(proc, node, prev, parent, isHook),
    setState: (proc, task, state) => tasks.setState(proc, task, state),
    setError: (proc, task, err) => tasks.setError(proc, task, err),
    markDirty: (proc, task) => tasks.markDirty(proc, task),
    markProcDirty: (proc) => tasks.markProcDirty(proc),
    reoffer: (proc, task) => rt.batch.reoffer(proc, task),
    controlChanged: (proc) => rt.events.emit('control', { proc }),
    taskChanged: (proc, task) => tasks.taskChanged(proc, task),
    schedule: (proc, task) => executions.schedule(proc, task),
    recordExec: (proc, task) => executions.recordExec(proc, task),
    stillRuns: (proc, task) => executions.stillRuns(proc, task),
    watchTimeouts: (task) => void rt.timed.add(task),
    onClose: (task, stop) => rt.stops.add(task, stop),
    offLane: (pid, name, work, then) => jobs.offLane(pid, name, work, then),
    aside: (pid, name, work, then) => jobs.aside(pid, name, work, then),

    evaluate: (proc, task, source, mode) => expressions.evaluate(proc, task, source, mode),
    evaluator: (proc, task) => expressions.evaluator(proc, task),
    scopeOf: (proc, task) => expressions.scopeOf(proc, task),
    checkSize: (what, value) => expressions.checkSize(what, value),

    publish: (message) => publisher.publish(message),
    publishProcessEvent: (proc, kind, message) => publisher.processEvent(proc, kind, message),
    settleDeliveries: (pid, tid) => publisher.settleDeliveries(pid, tid),

    startChild: (proc, task, mid, options) => startChildProcess(rt, port, proc, task, mid, options),
    toParent: (child) => returnToParent(rt, port, child),
    abortChild: (task) => abortChildOf(rt, port, task),
    ended: (proc) => rt.residents.evict(proc),
  };
  return port;
}
