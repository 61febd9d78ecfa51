/**
 * What the API adds to step tests (server/runtime/step-tests): a bound on how many run at once on
 * this server (`steptest.busy` beyond it, so designers' tests never queue up behind each other or
 * pile work on the engine's event loop), the test engine's options (the server's HTTP policy and
 * shell setting, its secrets, the registered packages, user code on a worker thread), and the
 * deploy rule: with `ACTS_DEPLOY_REQUIRE_TESTS=1` (or a deploy that asks for it) a model whose
 * saved cases do not all pass is refused with `model.tests_failed`.
 *
 * State: `running`, the step tests under way in this process (0 … MAX_RUNNING).
 */
import { ActError } from '../engine/errors.ts';
import { loadConfig } from '../runtime/config.ts';
import { readCases, runCases, type SandboxOptions } from '../runtime/step-tests/index.ts';
import type { StepTestVerdict } from '../../vocab/step-tests.ts';
import type { ApiServices } from './context.ts';

const MAX_RUNNING = 2;
let running = 0;

/** Runs `work` in one of the server's step-test slots; `steptest.busy` when none is free. */
export async function inStepTestSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) throw new ActError('steptest.busy', `the server already runs ${MAX_RUNNING} step tests: try again in a moment`);
  running++;
  try {
    return await work();
  } finally {
    running--;
  }
}

/** The options of a test engine on this server. */
export async function sandboxOptions(services: ApiServices): Promise<SandboxOptions> {
  const config = loadConfig();
  const rows = await services.engine.packages.list({ limit: 500 });
  const packages = rows.rows
    .filter((row) => !row.built_in && row.run_as !== 'func')
    .map((row) => ({ name: row.id, desc: row.desc, schema: row.schema as Record<string, unknown>, run_as: row.run_as }));
  return {
    engine: {
      http: { allow: config.http_allow, deny: config.http_deny, denyPrivate: config.http_deny_private },
      shell: { enabled: config.shell_enable, root: config.shell_root },
      secrets: services.secrets,
      // user code off the server's thread, like the server's own code acts
      codeWorkers: 1,
    },
    packages,
    // a subflow act's child model: its latest deployed version
    models: (mid) => services.engine.models.get(mid).then(
      (row) => row.data,
      () => undefined,
    ),
  };
}

/** Whether the server refuses deploys whose saved step tests fail (`ACTS_DEPLOY_REQUIRE_TESTS`). */
export function deployRequiresTests(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.ACTS_DEPLOY_REQUIRE_TESTS ?? '').trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ActError('config.invalid', `ACTS_DEPLOY_REQUIRE_TESTS must be 1, true, 0 or false, not '${value}'`);
}

/** Wall-clock time all saved cases of one model may take together on the server (ms). */
const ALL_CASES_MS = 60_000;

/** Runs every saved case of `source` on this server (in a slot, within ALL_CASES_MS). */
export function runSavedCases(services: ApiServices, source: string): Promise<StepTestVerdict[]> {
  return inStepTestSlot(async () => runCases(source, { ...(await sandboxOptions(services)), totalMs: ALL_CASES_MS }));
}

/** Refuses the deploy (`model.tests_failed`) when it must pass its saved cases and one fails. */
export async function requirePassingTests(services: ApiServices, source: string, asked: boolean | undefined): Promise<void> {
  if (!asked && !deployRequiresTests()) return;
  if (readCases(source).length === 0) return;
  const failing = (await runSavedCases(services, source)).filter((v) => !v.pass);
  if (failing.length === 0) return;
  const names = failing.map((v) => `'${v.name}'`).join(', ');
  throw new ActError(
    'model.tests_failed',
    `not deployed: ${failing.length} saved step test${failing.length === 1 ? '' : 's'} failed (${names}); fix the model or the test, or run them in the designer's Tests panel`,
    failing.map(({ name, node, end, failures }) => ({ name, node, end, failures })),
  );
}
