/**
 * What one migration the client asked for must have done (issue 16), from a view of its process
 * taken just before the `migrate` action and one just after. One that went through leaves the
 * process on the target version: its row names that version and carries its source, and every
 * live task sits at one of its nodes (invariants.ts `onItsVersion`). A refused one changed nothing
 * of the process — its row's version and source, and every task's node and state; a refusal for
 * work in flight (`busy`) is checked on the row alone, as that work may move tasks meanwhile.
 */
import type { Engine } from '../../server/runtime/engine.ts';
import type { TaskInfo } from '../../server/runtime/info.ts';
import type { ProcRow } from '../../server/store/contract/types.ts';
import type { MigrationProblem } from '../../vocab/migration.ts';
import { onItsVersion, type Violation } from './invariants.ts';

export interface ProcSnapshot {
  name: string;
  row: ProcRow;
  tasks: TaskInfo[];
}

export async function snapshot(engine: Engine, pid: string, name: string): Promise<ProcSnapshot> {
  const rows = (await engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'id', op: 'eq', value: pid }] } })).rows;
  if (rows.length !== 1) throw new Error(`process ${name} (${pid}) is not listed`);
  return { name, row: rows[0], tasks: await engine.tasks.list(pid) };
}

const version = (s: ProcSnapshot) => `version ${s.row.model_ver} (${s.row.model.length} chars of source)`;
const taskLines = (s: ProcSnapshot) => s.tasks.map((t) => `${t.tid} ${t.kind} ${t.nid} ${t.state}`);

/** A migration to version `ver` (source `source`) that went through. */
export function migrated(after: ProcSnapshot, ver: number, source: string): Violation[] {
  const out: Violation[] = [];
  if (after.row.model_ver !== ver || after.row.model !== source) {
    out.push({ invariant: 'migration-target', pid: after.row.id, detail: `process ${after.name} migrated to version ${ver} but runs ${version(after)}` });
  }
  return [...out, ...onItsVersion({ name: after.name, row: after.row, tasks: after.tasks })];
}

/** A migration the engine refused with `problems`. */
export function refused(before: ProcSnapshot, after: ProcSnapshot, problems: MigrationProblem[]): Violation[] {
  const why = problems.map((p) => p.code).join(', ');
  const pid = before.row.id;
  if (before.row.model_ver !== after.row.model_ver || before.row.model !== after.row.model) {
    return [{ invariant: 'migration-refused-changed', pid, detail: `a refused migration (${why}) moved process ${before.name} from ${version(before)} to ${version(after)}` }];
  }
  if (problems.some((p) => p.code === 'busy')) return [];
  const was = taskLines(before);
  const now = taskLines(after);
  const changed = [...now.filter((l) => !was.includes(l)).map((l) => `now ${l}`), ...was.filter((l) => !now.includes(l)).map((l) => `was ${l}`)];
  if (changed.length === 0) return [];
  return [{ invariant: 'migration-refused-changed', pid, detail: `a refused migration (${why}) changed tasks of process ${before.name}: ${changed.join('; ')}` }];
}
