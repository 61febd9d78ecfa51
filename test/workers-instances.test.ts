/**
 * Remote workers across two servers on one PostgreSQL database: a package registered on one is
 * learned by the other when a worker polls it; a job of a process run by one is leased and
 * completed through the other (the answer reaches the owner); of two polls racing on both servers
 * for one act exactly one gets it.
 */
import { describe, expect, it } from 'vitest';
import { useTwoServersOnPostgres, type TestServer } from './helpers/server.ts';

const FLOW = `id: ext-flow
steps:
  - id: s1
    acts:
      - { uses: ext.shared, key: work, params: { n: '{{ n }}' } }
`;

let a: TestServer;
let b: TestServer;

useTwoServersOnPostgres(async (pair) => {
  ({ a, b } = pair);
  await a.as('designer').packages.register.mutate({ name: 'ext.shared', schema: { type: 'object', properties: { n: { type: 'number' } } } });
  await a.as('designer').models.deploy.mutate({ source: FLOW });
});

async function completed(pid: string): Promise<void> {
  const end = Date.now() + 30_000;
  while ((await a.as('viewer').processes.get.query({ pid })).process.state !== 'completed') {
    if (Date.now() > end) throw new Error(`${pid} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('remote workers on two servers sharing PostgreSQL', () => {
  it("a worker on the other server gets the act and its answer completes it on the owner", async () => {
    const { pid } = await a.as('operator').processes.start.mutate({ mid: 'ext-flow', inputs: { n: 3 } });
    const { job } = await b.as('operator').workers.poll.mutate({ packages: ['ext.shared'], waitSecs: 20 });
    expect(job).toMatchObject({ pid, package: 'ext.shared', params: { n: 3 }, attempt: 1 });
    await b.as('operator').workers.complete.mutate({ lease: job!.lease, outputs: { answer: 6 } });
    await completed(pid);
    expect((await a.as('viewer').processes.get.query({ pid })).tasks.find((t) => t.key === 'work')?.data).toMatchObject({ answer: 6 });
  });

  it('a server that ticked learns a package registered on the other: a process it starts waits for a worker', async () => {
    await a.as('designer').packages.register.mutate({ name: 'ext.late', schema: { type: 'object' } });
    await a.as('designer').models.deploy.mutate({ source: FLOW.replace('ext.shared', 'ext.late').replace('id: ext-flow', 'id: late-flow') });
    await b.engine.tick();
    const { pid } = await b.as('operator').processes.start.mutate({ mid: 'late-flow', inputs: { n: 2 } });
    const { job } = await a.as('operator').workers.poll.mutate({ packages: ['ext.late'], waitSecs: 20 });
    expect(job).toMatchObject({ pid, package: 'ext.late', params: { n: 2 } });
    await a.as('operator').workers.complete.mutate({ lease: job!.lease, outputs: {} });
    await completed(pid);
  });

  it('two polls racing on both servers: exactly one gets the act', async () => {
    const { pid } = await a.as('operator').processes.start.mutate({ mid: 'ext-flow', inputs: { n: 1 } });
    const polls = await Promise.all([a, b].map((s) => s.as('operator').workers.poll.mutate({ packages: ['ext.shared'], waitSecs: 3 })));
    const jobs = polls.map((p) => p.job).filter((j) => j !== null);
    expect(jobs).toEqual([expect.objectContaining({ pid, attempt: 1 })]);
    await a.as('operator').workers.complete.mutate({ lease: jobs[0]!.lease, outputs: {} });
    await completed(pid);
  });
});
