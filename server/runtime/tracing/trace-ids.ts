/**
 * Trace and span ids of a process, derived from its ids (W3C trace context): the trace of process
 * `pid` is `traceIdOf(pid)` and the span of its task `tid` is `spanIdOf(pid, tid)`, so a span can
 * name its parent — and an HTTP act its `traceparent` — before the parent's span ends, on any
 * instance and across a restart, with nothing stored.
 */
import { createHash } from 'node:crypto';

const hex = (text: string, chars: number) => createHash('sha256').update(text).digest('hex').slice(0, chars);

/** 32 hex digits (never all zero: a SHA-256 prefix). */
export function traceIdOf(pid: string): string {
  return hex(`trace:${pid}`, 32);
}

/** 16 hex digits. */
export function spanIdOf(pid: string, tid: string): string {
  return hex(`span:${pid}:${tid}`, 16);
}

/** The `traceparent` header of a call made by task `tid` of process `pid` (sampled). */
export function traceparentOf(pid: string, tid: string): string {
  return `00-${traceIdOf(pid)}-${spanIdOf(pid, tid)}-01`;
}
