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

/** The six fields in the canonical order, with what each takes. */
const FIELDS = [
  { name: 'seconds', takes: '0–59' },
  { name: 'minutes', takes: '0–59' },
  { name: 'hours', takes: '0–23' },
  { name: 'day-of-month', takes: '1–31, L or W' },
  { name: 'month', takes: '1–12 or JAN–DEC' },
  { name: 'weekday', takes: '0–7 or SUN–SAT' },
] as const;
const FORMS = 'a value, a range (1-5), a list (1,15), a step (*/10) or *';
const SHAPE = '6 fields (sec min hour day month weekday) or 5 (min hour day month weekday), e.g. `0 */5 * * * *`';

/** Why croner refused `text`, as a sentence: the first field that is wrong on its own, when one is. */
function refusal(text: string, err: unknown): string {
  if (text.startsWith('@')) return `'${text}' is not a cron nickname: use @yearly, @monthly, @weekly, @daily or @hourly, or write ${SHAPE}`;
  const parts = text.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) return `'${text}' has ${parts.length} field${parts.length === 1 ? '' : 's'}; a cron has ${SHAPE}`;
  const fields = parts.length === 5 ? ['0', ...parts] : parts;
  for (const [i, field] of fields.entries()) {
    try {
      compile(fields.map((f, j) => (j === i ? f : '*')).join(' '), undefined);
    } catch {
      return `the ${FIELDS[i].name} field '${field}' of '${text}' is not valid: write ${FIELDS[i].takes} as ${FORMS}`;
    }
  }
  const reason = err instanceof Error ? err.message.replace(/^\w+: /, '') : String(err);
  return `'${text}' is not a valid cron (${reason.replace(/\.$/, '')})`;
}

/**
 * Why `cron` cannot be scheduled, as a sentence that says what to write, or `null` when it can.
 * An expression that parses but never fires (e.g. the 30th of February) is a problem too: its
 * `next_run` would be 0, always due.
 */
export function cronProblem(cron: string, timezone?: string): string | null {
  const text = cron.trim();
  if (!text) return `the cron is empty: write ${SHAPE}`;
  let job: Cron;
  try {
    job = compile(text, timezone);
  } catch (err) {
    return refusal(text, err);
  }
  try {
    if (job.nextRun(new Date()) === null) return `'${text}' never fires: no date matches it`;
  } catch (err) {
    return `'${text}' cannot be evaluated${timezone ? ` in timezone ${timezone}` : ''} (${err instanceof Error ? err.message : String(err)})`;
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
