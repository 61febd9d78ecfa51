/**
 * `acts migrate <model-id> --from N --to M`: moves the running processes of version N of a model
 * to version M on a server (issue 16; the API's migrations.*). `--map old=new` names a renamed
 * node, `--cancel <node>` cancels live acts at a node version M does not have, `--pid` picks
 * processes (default: every unfinished one of version N). `--check` validates the plan and moves
 * nothing: one line per process that cannot migrate (`{"pid","problems"}`), then the counts.
 * Otherwise the server migrates them in the background; one line per process as it ends
 * (`{"pid","outcome"[,"code","message"]}`), then `{"job","total","done","skipped","refused"}`.
 * Exit 0 when no process was blocked or refused; 6 otherwise (`process.migration_refused`).
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { RemoteFailure, usage } from './failure.ts';
import { runRemote, type Io, type RemoteContext } from './session.ts';
import { integer } from './values.ts';

export interface MigrateFlags extends ConnectionFlags {
  from?: string;
  to?: string;
  map: string[];
  cancel: string[];
  pid: string[];
  check?: boolean;
}

/** How often the progress of a running migration is read, ms. */
const POLL_MS = 200;

function mapOf(pairs: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to, ...rest] = pair.split('=');
    if (!from || !to || rest.length > 0) throw usage(`--map expects old=new (a node id of the source version = one of the target), got '${pair}'`);
    map[from.trim()] = to.trim();
  }
  return map;
}

function planInput(mid: string, flags: MigrateFlags) {
  const from = integer(flags.from, '--from', 1, 1_000_000);
  const to = integer(flags.to, '--to', 1, 1_000_000);
  if (from === undefined || to === undefined) throw usage('acts migrate needs --from and --to: the version the processes run and the one they move to');
  const removed = Object.fromEntries(flags.cancel.map((nid) => [nid, 'cancel' as const]));
  return { mid, from, to, map: mapOf(flags.map), removed, ...(flags.pid.length > 0 ? { pids: flags.pid } : {}) };
}

const refused = (what: string) => new RemoteFailure('process.migration_refused', what);

async function check({ client, io }: RemoteContext, input: ReturnType<typeof planInput>): Promise<number> {
  const result = await client.migrations.check.mutate(input);
  for (const b of result.blocked) io.out(JSON.stringify(b));
  io.out(JSON.stringify({ total: result.total, ready: result.ready, skipped: result.skipped, blocked: result.blocked.length, ms: result.ms }));
  if (result.blocked.length > 0) throw refused(`${result.blocked.length} of ${result.total} processes cannot follow the plan (each is listed above with its problems); map or cancel their nodes`);
  return EXIT.complete;
}

async function migrate({ client, io }: RemoteContext, input: ReturnType<typeof planInput>): Promise<number> {
  const { job } = await client.migrations.start.mutate(input);
  let seen = 0;
  for (;;) {
    const status = await client.bulk.status.query({ job, resultsFrom: seen });
    for (const r of status.results) io.out(JSON.stringify(r));
    seen += status.results.length;
    if (status.state === 'done' && seen >= status.processed) {
      io.out(JSON.stringify({ job, total: status.total, ...status.counts }));
      if (status.counts.refused > 0) throw refused(`${status.counts.refused} of ${status.total} processes were not migrated (each is listed above with its reason); they run version ${input.from} as before`);
      return EXIT.complete;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Runs `acts migrate`; returns the exit code. */
export function migrateCommand(mid: string, flags: MigrateFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async (ctx) => {
    const input = planInput(mid, flags);
    return flags.check ? check(ctx, input) : migrate(ctx, input);
  });
}
