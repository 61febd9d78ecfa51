/**
 * Spans of processes (issue: traces per process): as a workflow, step or act task of a process
 * ends, one span from its start to its end, child of its parent task's span; the workflow's span
 * is the trace's root, linked to the act that called it when the process is a subflow child.
 * Attributes: acts.pid, acts.tid, acts.model, acts.version, acts.package (acts), acts.state and,
 * on an error, acts.ecode with the span's status ERROR. Tasks skipped, or that never started, make
 * no span. Listens to the engine's `task` events only when tracing is configured (no cost when off).
 *
 * State: the tasks whose span was sent (a task's later events send nothing more).
 */
import { ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags, type Attributes, type Link } from '@opentelemetry/api';
import type { Process } from '../../engine/process.ts';
import type { Task } from '../../engine/task.ts';
import { asAct } from '../../engine/tree/node.ts';
import type { EngineEvents } from '../events.ts';
import type { Tracing } from './otlp.ts';
import { spanIdOf, traceIdOf } from './trace-ids.ts';

const TRACED_KINDS: ReadonlySet<string> = new Set(['workflow', 'step', 'act']);

/** The context of a span that is not open here (its ids are known: trace-ids.ts). */
function parentContext(traceId: string, spanId: string) {
  return trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
}

function attributesOf(proc: Process, task: Task): Attributes {
  const attributes: Attributes = { 'acts.pid': proc.pid, 'acts.tid': task.tid, 'acts.model': proc.mid, 'acts.version': proc.workflow.ver, 'acts.state': task.state };
  if (task.kind === 'act') attributes['acts.package'] = asAct(task.node).uses;
  if (task.err?.ecode) attributes['acts.ecode'] = task.err.ecode;
  if (task.kind === 'workflow' && proc.outcome) attributes['acts.outcome'] = proc.outcome;
  return attributes;
}

export function sendSpan(tracing: Tracing, proc: Process, task: Task, now: number): void {
  const traceId = traceIdOf(proc.pid);
  const spanId = spanIdOf(proc.pid, task.tid);
  const links: Link[] = [];
  let parent = ROOT_CONTEXT;
  if (task.parent) parent = parentContext(traceId, spanIdOf(proc.pid, task.parent.tid));
  else if (proc.parentPid && proc.parentTid) {
    links.push({ context: { traceId: traceIdOf(proc.parentPid), spanId: spanIdOf(proc.parentPid, proc.parentTid), traceFlags: TraceFlags.SAMPLED } });
  }
  const span = tracing.withIds(traceId, spanId, () =>
    tracing.tracer.startSpan(`${task.kind} ${task.node.id}`, { startTime: task.startTime, attributes: attributesOf(proc, task), links }, parent),
  );
  if (task.state === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: task.err?.message ?? task.err?.ecode ?? 'error' });
  span.end(Math.max(task.endTime || now, task.startTime));
}

type On = <K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void) => unknown;

/** Sends a span for each task of `kinds` that ended (once per task). */
export function traceProcesses(on: On, tracing: Tracing, now: () => number): void {
  const sent = new WeakSet<Task>();
  on('task', ({ proc, task }) => {
    if (!task.terminal || sent.has(task) || !TRACED_KINDS.has(task.kind)) return;
    sent.add(task);
    if (task.state === 'skipped' || task.startTime === 0) return;
    sendSpan(tracing, proc, task, now());
  });
}
