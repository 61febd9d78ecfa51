/**
 * One run of one subject of `npm run bench:peers`, in a process of its own (a fresh heap and JIT
 * for each): `tsx bench/peers/run-one.ts <subject>` prints its RunResult as one JSON line.
 */
import { actsSubject } from './acts.ts';
import { graphileSubject } from './graphile.ts';
import { pgBossSubject } from './pg-boss.ts';
import { commitPerWriteSubject, setBasedSubject } from './raw-pg.ts';
import { countStatements } from './pg-costs.ts';
import { Completions, drive, type Subject } from './workload.ts';

export const SUBJECTS: Record<string, (completions: Completions) => Promise<Subject>> = {
  'acts memory': (c) => actsSubject('memory', c),
  'acts sqlite': (c) => actsSubject('sqlite', c),
  'acts postgresql': (c) => actsSubject('postgresql', c),
  'pg-boss': pgBossSubject,
  'graphile-worker': graphileSubject,
  'pg commit per write': commitPerWriteSubject,
  'pg set-based': setBasedSubject,
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const make = SUBJECTS[name];
  if (!make) throw new Error(`unknown subject '${name}': one of ${Object.keys(SUBJECTS).join(', ')}`);
  countStatements();
  const completions = new Completions();
  const result = await drive(name, await make(completions), completions);
  console.log(JSON.stringify(result));
}

if (process.argv[1]?.endsWith('run-one.ts')) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
