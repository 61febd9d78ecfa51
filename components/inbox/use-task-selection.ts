/**
 * The inbox tasks ticked for a bulk decision: a click ticks or unticks one task, a shift-click sets
 * every task from the last one clicked to this one as this one becomes. State: the ticked tasks by
 * key (`pid/tid`), and the key of the last click. Both outlive the list's changes between clicks:
 * the range runs between the two tasks where the list holds them now (a plain click when the last
 * one left it), and a ticked task that leaves the list — answered elsewhere — stays ticked, so the
 * bulk decision reports it instead of dropping it unseen. `clear()` empties both.
 */
'use client';
import { useCallback, useMemo, useState } from 'react';
import { taskKey } from './inbox-list.tsx';
import type { BulkTask } from './use-bulk-answer.ts';

export function useTaskSelection(rows: readonly BulkTask[]) {
  const keys = useMemo(() => rows.map(taskKey), [rows]);
  const [ticked, setTicked] = useState<ReadonlyMap<string, BulkTask>>(new Map());
  const [last, setLast] = useState<string | null>(null);
  const select = useCallback(
    (key: string, index: number, range: boolean) => {
      const anchor = range && last !== null ? keys.indexOf(last) : -1;
      const [from, to] = anchor >= 0 ? [Math.min(anchor, index), Math.max(anchor, index)] : [index, index];
      setTicked((now) => {
        const next = new Map(now);
        const tick = !now.has(key);
        for (let i = from; i <= to; i++) {
          const row = rows[i];
          if (row === undefined) continue;
          if (tick) next.set(keys[i], { pid: row.pid, tid: row.tid, mid: row.mid, nid: row.nid });
          else next.delete(keys[i]);
        }
        return next;
      });
      setLast(key);
    },
    [rows, keys, last],
  );
  const clear = useCallback(() => {
    setTicked(new Map());
    setLast(null);
  }, []);
  const selected = useMemo<ReadonlySet<string>>(() => new Set(ticked.keys()), [ticked]);
  const tasks = useMemo(() => [...ticked.values()], [ticked]);
  return { selected, tasks, select, clear };
}
