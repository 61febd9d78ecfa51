/**
 * Which runs a bulk action would take, on the runs list: picked rows (across pages), or every run
 * matching the filter ("select all N matching", N from the list's count).
 *
 * State: `picked` (run ids) and `all` (every match). Picking or unpicking a row while `all` is on
 * turns it into the page's rows (less that one); a change of the filter (`filterKey`) clears both.
 */
'use client';
import { useCallback, useMemo, useState } from 'react';
import type { RowSelection } from './runs-table.tsx';

export interface RunSelection {
  /** The table's checkboxes. */
  rows: RowSelection;
  /** Every run matching the filter is selected. */
  all: boolean;
  /** How many runs are selected. */
  size: number;
  /** The picked run ids (when not `all`). */
  pids: readonly string[];
  selectAll(): void;
  clear(): void;
}

const NONE: ReadonlySet<string> = new Set();

export function useRunSelection(pagePids: readonly string[], count: number, filterKey: string): RunSelection {
  const [state, setState] = useState({ key: filterKey, picked: NONE, all: false });
  // a new filter selects nothing (set during render: no frame shows the old selection)
  if (state.key !== filterKey) setState({ key: filterKey, picked: NONE, all: false });
  const { picked, all } = state.key === filterKey ? state : { picked: NONE, all: false };

  const toggle = useCallback(
    (pid: string) =>
      setState((prev) => {
        const next = new Set(prev.all ? pagePids : prev.picked);
        if (next.has(pid)) next.delete(pid);
        else next.add(pid);
        return { ...prev, picked: next, all: false };
      }),
    [pagePids],
  );
  const onPage = pagePids.filter((pid) => all || picked.has(pid)).length;
  const page = onPage === 0 ? 'none' : onPage === pagePids.length ? 'all' : 'some';
  const togglePage = useCallback(
    () =>
      setState((prev) => {
        const next = new Set(prev.all ? NONE : prev.picked);
        const everyOne = !prev.all && pagePids.every((pid) => next.has(pid));
        for (const pid of pagePids) {
          if (everyOne || prev.all) next.delete(pid);
          else next.add(pid);
        }
        return { ...prev, picked: next, all: false };
      }),
    [pagePids],
  );
  const has = useCallback((pid: string) => all || picked.has(pid), [all, picked]);
  const rows = useMemo<RowSelection>(() => ({ has, toggle, page, togglePage }), [has, toggle, page, togglePage]);
  return {
    rows,
    all,
    size: all ? count : picked.size,
    pids: useMemo(() => [...picked], [picked]),
    selectAll: useCallback(() => setState((prev) => ({ ...prev, picked: NONE, all: true })), []),
    clear: useCallback(() => setState((prev) => ({ ...prev, picked: NONE, all: false })), []),
  };
}
