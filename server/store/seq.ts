/**
 * Insertion order for SQL rows (the hidden `seq` column): a per-process monotonic clock in
 * microseconds, so rows come back in creation order like the in-memory store's, and rows written
 * by several processes on one database interleave by wall-clock time.
 *
 * State: the last value handed out in this process.
 */
let last = 0;

/** The next `seq` (µs since the epoch: a safe integer until the year 2255). */
export function nextSeq(): number {
  last = Math.max(last + 1, Date.now() * 1000);
  return last;
}
