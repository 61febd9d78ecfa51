/**
 * Who may change a whole process (docs/server.md, "Auth and roles"): abort it, set its variables,
 * or push acts into it. Such a change can decide what an assigned task would have decided, so the
 * caller must be allowed to answer every open interrupt of the process and of its running subflow
 * children (inbox-access.ts, `mayAct`); an admin always may, and a process with no open assigned
 * interrupt is open to every operator. Everyone needs the `operate` permission (policy.ts).
 */
import type { Caller } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import { ActError } from '../engine/errors.ts';
import { assignmentOf, mayAct, type Assignment } from './inbox-access.ts';
import { assignmentText } from '../../vocab/inbox-principals.ts';
import { eq, toQuery } from './paging.ts';
import { allows } from './policy.ts';
import { isTerminalName } from '../../vocab/states.ts';

/** Most processes (the process and its subflow descendants) looked at for one check. */
const MAX_PROCESSES = 200;
const CHILDREN_PAGE = 100;

interface Refusal {
  pid: string;
  tid: string;
  assignment: Assignment;
}

const PROCESS_WIDE_ACTIONS = new Set(['abort', 'set_process_vars', 'push']);

/** A task action (tasks.ts names) that changes the whole process rather than one act: any action on the root, abort (of any act: it aborts the process), set-vars, push. */
export function isProcessWide(action: string, tid: string): boolean {
  return tid === '$' || PROCESS_WIDE_ACTIONS.has(action);
}

async function runningChildren(engine: Engine, pid: string): Promise<string[]> {
  const page = await engine.procs.list(toQuery([eq('parent_pid', pid)], { offset: 0, limit: CHILDREN_PAGE }, { field: 'start_time', order: 'asc' }));
  return page.rows.filter((row) => !isTerminalName(row.state)).map((row) => row.id);
}

/** The first open interrupt of the process (or a running descendant) the caller may not answer. */
async function firstForeignTask(engine: Engine, caller: Caller, pid: string): Promise<Refusal | null> {
  const queue = [pid];
  for (let i = 0; i < queue.length && i < MAX_PROCESSES; i++) {
    for (const task of await engine.tasks.list(queue[i])) {
      if (task.state !== 'interrupted') continue;
      const assignment = assignmentOf(task.params);
      if (!mayAct(caller, assignment)) return { pid: task.pid, tid: task.tid, assignment };
    }
    queue.push(...(await runningChildren(engine, queue[i])));
  }
  return null;
}

/** Throws `auth.forbidden` unless the caller may change process `pid` as a whole (see the header). */
export async function requireMayChangeProcess(engine: Engine, caller: Caller, pid: string): Promise<void> {
  if (allows(caller, 'override')) return;
  const refusal = await firstForeignTask(engine, caller, pid);
  if (!refusal) return;
  const who = assignmentText(refusal.assignment);
  const where = refusal.pid === pid ? '' : ` (in its subflow '${refusal.pid}')`;
  // a task assigned to no one is open to every operator: the caller is not one
  const assigned = who ? ` assigned to ${who}` : ', which only operators may answer,';
  throw new ActError(
    'auth.forbidden',
    `process '${pid}' has the open task '${refusal.tid}'${where}${assigned} and '${caller.name}' may not answer it, so may not change the whole process (abort it, set its variables, push acts, pause, retry) — ask an admin, or someone who may answer that task`,
    { pid: refusal.pid, tid: refusal.tid, ...refusal.assignment },
  );
}
