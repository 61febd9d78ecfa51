/** Whether an operating-system process runs (a zombie waiting for its reaper has stopped running). */
import { readFileSync } from 'node:fs';

export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
