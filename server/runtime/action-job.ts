/**
 * The job that applies a recorded client action (from a client here, from another instance through
 * the relay, or re-applied by recovery). With code workers, the outputs of the act the action
 * closes may be evaluated on a worker first (engine/actions.ts, `mergeClosing`): then the job ends
 * with only the action's options merged, and runs again in the held lane once the worker answered.
 */
import { applyClientAction } from '../engine/actions.ts';
import type { Process } from '../engine/process.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Runtime } from './runtime-types.ts';
import { MIGRATE_ACTION } from '../../vocab/migration.ts';

/**
 * A migration whose target version is not held here yet: the lane is held while it loads, then
 * the action is applied in it (a version that is not deployed refuses the action).
 */
function awaitsTarget(rt: Runtime, proc: Process, request: { action: string; options?: Vars }, apply: () => void, done: (error: unknown) => void): boolean {
  const ver = request.action === MIGRATE_ACTION ? request.options?.ver : undefined;
  if (typeof ver !== 'number' || rt.links.modelVersion(proc.mid, ver)) return false;
  rt.port.offLane(proc.pid, `load version ${ver} of ${proc.mid}`, rt.links.loadVersion(proc.mid, ver), (outcome) => (outcome.ok ? apply() : done(outcome.error)));
  return true;
}

/**
 * The job that applies a recorded client action: `done` gets the refusal (or undefined) once it
 * is applied. When the outputs of the act it closes went to a code worker, the job applies it
 * again in the held lane once the worker answered — or calls `gone` if the process left meanwhile.
 */
export function actionJob(rt: Runtime, proc: Process, request: { tid: string; action: string; options?: Vars }, done: (error: unknown) => void, gone: () => void): () => void {
  const apply = (): void => {
    if (awaitsTarget(rt, proc, request, apply, done)) return;
    let error: unknown;
    try {
      if (applyClientAction(rt.port, proc, request.tid, request.action, request.options ?? {}, { retry: apply, gone }) === 'deferred') return;
    } catch (err) {
      error = err ?? new Error('the action failed');
    }
    done(error);
  };
  return apply;
}
