/**
 * The inbox tasks ticked for a bulk decision: a click ticks or unticks one task, a shift-click sets
 * every task from the last one clicked to this one as this one becomes. State: the ticked keys
 * (`pid/tid`) and the index of the last click; `clear()` empties both.
 */
'use client';
import { useCallback, useState } from 'react';

export function useTaskSelection(keys: readonly string[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [last, setLast] = useState<number | null>(null);
  const select = useCallback(
    (key: string, index: number, range: boolean) => {
      setSelected((now) => {
        const next = new Set(now);
        const tick = !now.has(key);
        const [from, to] = range && last !== null ? [Math.min(last, index), Math.max(last, index)] : [index, index];
        for (let i = from; i <= to; i++) if (keys[i] !== undefined) (tick ? next.add(keys[i]) : next.delete(keys[i]));
        return next;
      });
      setLast(index);
    },
    [keys, last],
  );
  const clear = useCallback(() => {
    setSelected(new Set());
    setLast(null);
  }, []);
  return { selected, select, clear };
}
