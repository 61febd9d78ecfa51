/**
 * The per-run call of a bulk migration (issue 16): the plan is the job's, made in the migration
 * dialog (routers/migrations.ts). A run that ended or already runs the target version is left as
 * it is; every other one is migrated — by designers and admins (`design`) whoever its open tasks
 * wait for: a migration answers none of them, each keeps the request it made — and gets an
 * audit entry of its own (`proc.migrate`, target: the run), so the run's history shows the
 * switch (a refusal with engine.busy, tried again, gets none).
 */
import type { ApiServices } from '../context.ts';
import type { Caller } from '../../auth/types.ts';
import { recordAudit } from '../audit.ts';
import { toActError } from '../errors.ts';
import type { BulkOperation } from './operations.ts';
import { isTerminalName } from '../../../vocab/states.ts';
import type { MigrationPlan } from '../../../vocab/migration.ts';
import type { ProcRow } from '../../runtime/read-model-types.ts';

/** Migrates one run with `plan`, audited as `proc.migrate` on the run (its result: `ok` or the refusal's code). */
export async function migrateRun(services: ApiServices, caller: Caller, pid: string, plan: MigrationPlan, row?: ProcRow | null): Promise<{ from: number; to: number }> {
  let from = row?.model_ver ?? 0;
  const audit = (result: string) =>
    recordAudit(services, caller, { action: 'proc.migrate', target: pid, ids: { pid }, detail: { from, to: plan.ver, map: plan.map ?? {}, removed: plan.removed ?? {} } }, result);
  try {
    from ||= (await services.engine.reads.storedProcess(pid)).model_ver;
    await services.engine.migrations.migrate(pid, plan);
  } catch (err) {
    const code = toActError(err).code;
    // the engine's backpressure is no answer: the bulk job tries again (jobs.ts)
    if (code !== 'engine.busy') await audit(code);
    throw err;
  }
  await audit('ok');
  return { from, to: plan.ver };
}

/** Runs a bulk migration works on at once. */
const MIGRATE_PARALLEL = 32;

export function migrateOperation(mid: string, plan: MigrationPlan): BulkOperation {
  return {
    audit: 'proc.bulk_migrate',
    skips: (row) => isTerminalName(row.state) || row.mid !== mid || row.model_ver === plan.ver,
    apply: async (services, caller, pid, row) => void (await migrateRun(services, caller, pid, plan, row)),
    // each run waits for its own commits: more in flight share the store writer's transactions
    parallel: MIGRATE_PARALLEL,
  };
}
