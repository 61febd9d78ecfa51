/** A trigger time for a table cell: "—" when never, else "in 5 min" / "3 h ago", with the full date for a tooltip. */
import { ago, waited } from '../inbox/waited.ts';

export function when(ms: number, now: number): { text: string; full: string } {
  if (!ms) return { text: '—', full: 'never' };
  const full = new Date(ms).toLocaleString();
  if (ms > now) {
    const w = waited(now, ms);
    return { text: w === 'just now' ? 'in a moment' : `in ${w}`, full };
  }
  return { text: ago(ms, now), full };
}
