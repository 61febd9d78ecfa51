/**
 * What a migration check found (`migrations.check`): how many processes are ready, skipped (ended,
 * or on the target version already) and blocked, and each blocked process (linked to its run page)
 * with every problem in a sentence and its code. Stateless.
 */
'use client';
import Link from 'next/link';
import type { ApiOutput } from '../data/api-types.ts';
import { BULK_ACTIONS } from '../../vocab/bulk-actions.ts';
import styles from './migrations.module.css';
import { processes } from './words.ts';

export type MigrationCheck = ApiOutput<'migrations.check'>;

const SHOWN = 100;

/** Source node id → how many blocked processes have a problem there. */
export function blockedByNode(check: MigrationCheck | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { problems } of check?.blocked ?? []) {
    for (const nid of new Set(problems.map((p) => p.nid).filter((nid): nid is string => nid !== null))) counts.set(nid, (counts.get(nid) ?? 0) + 1);
  }
  return counts;
}

export function CheckResult({ check }: { check: MigrationCheck }) {
  const { total, ready, skipped, blocked } = check;
  return (
    <section className={styles.check} aria-label="Check result" data-ready={ready} data-skipped={skipped} data-blocked={blocked.length}>
      <p aria-live="polite">
        {processes(total)} checked: <strong data-count="ready">{ready} ready</strong>, <span data-count="skipped">{skipped} skipped ({BULK_ACTIONS.migrate.skipped})</span>,{' '}
        <span data-count="blocked" className={blocked.length > 0 ? styles.blocked : undefined}>
          {blocked.length} blocked
        </span>
      </p>
      {blocked.length > 0 ? (
        <ul className={styles.blockedList} aria-label="Blocked processes">
          {blocked.slice(0, SHOWN).map(({ pid, problems }) => (
            <li key={pid} data-pid={pid}>
              <Link href={`/runs/${encodeURIComponent(pid)}`} className={styles.pid}>
                {pid}
              </Link>
              <ul>
                {problems.map((p, i) => (
                  <li key={i} data-code={p.code}>
                    {p.message} <code className={styles.code}>{p.code}</code>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      ) : null}
      {blocked.length > SHOWN ? <p className={styles.muted}>The first {SHOWN} of {processes(blocked.length)} blocked are shown.</p> : null}
    </section>
  );
}
