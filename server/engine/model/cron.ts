/**
 * Cron expressions of schedule triggers (spec 5.7).
 *
 * The canonical form has 6 fields with seconds: `sec min hour day month weekday`. We also accept the
 * classic 5-field form (`min hour day month weekday`, firing at second 0) and croner's nicknames
 * (`@hourly`, `@daily`, …), because authors paste those from everywhere and their meaning is not
 * ambiguous. 7-field patterns (with a year) are rejected: the spec does not have them.
 */
import { Cron } from 'croner';

function compile(cron: string, timezone: string | undefined): Cron {
  return new Cron(cron.trim(), { paused: true, mode: '5-or-6-parts', timezone: timezone || undefined });
}

/** True when `timezone` is an IANA zone name the runtime knows (e.g. `Europe/Paris`, `UTC`). */
export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `cron` cannot be scheduled, or `null` when it can. An expression that parses but never fires
 * (e.g. the 30th of February) is a problem too: its `next_run` would be 0, always due.
 */
export function cronProblem(cron: string, timezone?: string): string | null {
  let job: Cron;
  try {
    job = compile(cron, timezone);
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^CronPattern: /, '') : String(err);
    return `invalid cron '${cron}': ${reason}`;
  }
  try {
    if (job.nextRun(new Date()) === null) return `cron '${cron}' never fires`;
  } catch (err) {
    return `cron '${cron}' cannot be evaluated: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}

/**
 * Epoch milliseconds of the first fire of `cron` strictly after `fromMs`, in `timezone` (the
 * server's zone when empty); `null` when the expression or zone is invalid or never fires again.
 */
export function nextCronRun(cron: string, timezone: string | undefined, fromMs: number): number | null {
  try {
    return compile(cron, timezone).nextRun(new Date(fromMs))?.getTime() ?? null;
  } catch {
    return null;
  }
}
