/** Timeout durations (spec 1.5): `<integer><unit>` with unit `s`, `m`, `h` or `d`. */

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+)([smhd])$/;

/** Milliseconds of a duration such as `30s` or `2h`; `null` when `text` is not one. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2]];
  return Number.isSafeInteger(ms) ? ms : null;
}
