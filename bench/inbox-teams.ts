/**
 * `npm run bench:inbox-teams`: the inbox of a team member with 10,000 open tasks offered to 50
 * groups (BENCH_TEAMS_OPEN, BENCH_TEAMS_GROUPS), through the real HTTP API, on SQLite and
 * PostgreSQL. One process per group waits at an interrupt offered to it (`candidate_groups`, with
 * its own due date and priority); its rows are copied until the groups hold OPEN tasks in all, a
 * tenth of them claimed by someone. The member belongs to 3 groups (≈ 600 tasks); the admin sees
 * all. Reported: median and p99 of RUNS calls of `inbox.list` (50 rows) for each view (all, my
 * groups', mine), each order (start, due, priority) and the overdue filter, with how many tasks
 * each counted. The issue's goal: every one under 200 ms.
 */
import type { StoreBackend } from '../server/store/open-store.ts';
import { copyProcess, rowsOf } from '../test/helpers/process-copies.ts';
import { startTestServer, USERS, type TestServer } from '../test/helpers/server.ts';
import { callLatency, ensurePostgres, printRows } from './durable/common.ts';

const OPEN = Number(process.env.BENCH_TEAMS_OPEN ?? 10_000);
const GROUPS = Number(process.env.BENCH_TEAMS_GROUPS ?? 50);
const RUNS = Number(process.env.BENCH_TEAMS_RUNS ?? 30);
const MEMBER_OF = 3;

const MODEL = `
id: team-task
inputs: { team: '', due: '', prio: 50 }
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: decide, params: { title: 'Decide for {{ team }}', candidate_groups: ['{{ team }}'], due: '{{ due }}', priority: '{{ prio }}' } } ] }
`;

const group = (i: number) => `team-${i}`;

async function seed(t: TestServer): Promise<void> {
  const admin = t.as('admin');
  for (let i = 0; i < GROUPS; i++) await admin.groups.create.mutate({ name: group(i) });
  for (let i = 0; i < MEMBER_OF; i++) await admin.groups.addMember.mutate({ name: group(i), user: 'alice' });
  await t.engine.models.deploy(MODEL);
  const perGroup = Math.floor(OPEN / GROUPS);
  for (let i = 0; i < GROUPS; i++) {
    const due = i % 5 === 0 ? '2020-01-01' : `${1 + (i % 48)}h`;
    const { pid } = await t.engine.procs.start('team-task', { team: group(i), due, prio: (i * 37) % 100 });
    await t.engine.idle();
    const sample = await rowsOf(t.store, pid);
    // a tenth of each group's tasks held by bob
    const heldCount = Math.floor(perGroup / 10);
    await copyProcess(t.store, sample, perGroup - 1 - heldCount, `g${i}-`);
    const held = { ...sample, inbox: sample.inbox.map((r) => ({ ...r, holder: 'bob', held_since: r.start_time })) };
    await copyProcess(t.store, held, heldCount, `g${i}-held-`);
  }
}

async function run(backend: StoreBackend): Promise<string[][]> {
  // room for one waiting process per group: each is the sample its group's copies are made from
  const t = await startTestServer({ backend, users: USERS, engine: { cacheCap: GROUPS + 10 } });
  try {
    await seed(t);
    const rows: string[][] = [];
    const measure = async (who: string, label: string, input: Record<string, unknown>) => {
      const api = t.as(who);
      const call = () => api.inbox.list.query({ limit: 50, offset: 0, ...input });
      const { count } = await call();
      const { p50, p99 } = await callLatency(call, RUNS);
      rows.push([backend, who, label, String(count), p50.toFixed(1), p99.toFixed(1)]);
    };
    await measure('admin', 'all, start', {});
    await measure('admin', 'all, due', { order: 'due' });
    await measure('admin', 'all, overdue', { overdue: true });
    for (const order of ['start', 'due', 'priority'] as const) await measure('alice', `all, ${order}`, { order });
    await measure('alice', "my groups', due", { view: 'groups', order: 'due' });
    await measure('alice', 'all, overdue', { overdue: true });
    await measure('bob', 'mine, priority', { view: 'mine', order: 'priority' });
    return rows;
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  await ensurePostgres();
  // BENCH_BACKENDS=postgresql (comma separated) measures only those
  const only = process.env.BENCH_BACKENDS?.split(',');
  const table: string[][] = [];
  for (const backend of ['sqlite', 'postgresql'] as const) if (!only || only.includes(backend)) table.push(...(await run(backend)));
  printRows(`inbox.list (50 rows) with ${OPEN} open tasks over ${GROUPS} groups, ${RUNS} calls each`, ['backend', 'caller', 'view, order', 'counted', 'p50 ms', 'p99 ms'], table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
