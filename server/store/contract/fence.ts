/** The fence's verdict over the procs rows it read (Store.fenceProcesses, every store). */

/**
 * Of the fence's rows, the pids another instance than `owner` owns, and the `fresh` pids (of
 * processes the write starts) whose row exists already.
 */
export const lostOf = (rows: ReadonlyArray<Record<string, unknown>>, owner: string, fresh: readonly string[] = []): string[] =>
  rows.filter((row) => (row.owner !== null && row.owner !== undefined && row.owner !== owner) || fresh.includes(String(row.id))).map((row) => String(row.id));
