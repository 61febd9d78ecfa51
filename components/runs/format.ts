/** Times and durations as the run pages show them (local time; `—` for "not yet"). */

const DATE_TIME = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hourCycle: 'h23' });

/** `Mar 4, 14:02:11`, or `—` for 0. */
export function formatDateTime(ms: number): string {
  return ms > 0 ? DATE_TIME.format(ms) : '—';
}

/** `14:02:11.042`, or `—` for 0. */
export function formatTime(ms: number): string {
  return ms > 0 ? TIME.format(ms) : '—';
}

/** `850 ms`, `12.4 s`, `3 min 5 s`, `2 h 10 min`; `—` when it has not started. */
export function formatDuration(start: number, end: number, now = Date.now()): string {
  if (start <= 0) return '—';
  const ms = Math.max(0, (end > 0 ? end : now) - start);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min ${Math.floor((ms % 60_000) / 1000)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** A `datetime-local` input's value as epoch ms (undefined when empty or invalid). */
export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Why a run or task failed, in one line: `ecode: message`, or the message alone when the code is empty. */
export function errorReason(err: { ecode: string; message: string } | null | undefined): string {
  if (!err) return '';
  return err.ecode ? `${err.ecode}: ${err.message}` : err.message;
}

/** The label of a run's state badge: `Ended: <outcome>` for a run that ended on a declared outcome (state completed), else the state's own. */
export function runStateLabel(run: { outcome?: string | null }): string | undefined {
  return run.outcome ? `Ended: ${run.outcome}` : undefined;
}
