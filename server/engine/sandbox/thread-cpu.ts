/**
 * The CPU time the calling thread has used (Linux: `/proc/thread-self/stat`, in clock ticks of
 * 10 ms), so a script's time limit can count the time it ran rather than the time it waited for
 * a CPU: a code worker runs at a lower priority and may wait long on a busy machine. Undefined
 * where the file is missing: the limit is then wall-clock time.
 */
import { readFileSync } from 'node:fs';

/** Linux reports thread times in USER_HZ ticks, 100 per second on every supported platform. */
const MS_PER_TICK = 10;

let available = process.platform === 'linux';

export function threadCpuMs(): number | undefined {
  if (!available) return undefined;
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    // the fields after the command name (which may hold spaces and parentheses): state is the first
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : undefined;
  } catch {
    available = false;
    return undefined;
  }
}
