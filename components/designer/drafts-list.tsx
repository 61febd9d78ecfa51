/**
 * The designer's own drafts on /models (`drafts.list`), above the models: each marked as a draft,
 * what it edits (a model and the version it started from, or a workflow never deployed), when it
 * was saved, a link that opens it in the designer and Discard. Shown to designers with drafts.
 * State: the list read and the discard mutation's (idle → discarding → the list read again).
 */
'use client';
import Link from 'next/link';
import { useMe } from '../data/auth.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './models-list.module.css';

export function DraftsList() {
  const me = useMe();
  const designer = me.can('design');
  const drafts = useApiQuery('drafts.list', undefined, { enabled: designer, gcTime: 0 });
  const discard = useApiMutation('drafts.discard', { invalidates: ['drafts.list'] });
  if (!designer) return null;
  if (drafts.error) return <ErrorNote error={drafts.error} title="Your drafts could not be read" onRetry={() => drafts.refetch()} />;
  const rows = drafts.data?.rows ?? [];
  const discarding = discard.isPending ? JSON.stringify(discard.variables?.key) : null;
  if (rows.length === 0) return null;
  return (
    <section className={styles.drafts} aria-label="Your drafts">
      <h2 className={styles.sectionTitle}>Your drafts</h2>
      {discard.error ? <ErrorNote error={discard.error} title="The draft was not discarded" /> : null}
      <ul className={styles.draftList}>
        {rows.map((d) => {
          const key = d.mid ? { mid: d.mid } : { fresh: d.fresh };
          const href = d.mid ? `/models/${encodeURIComponent(d.mid)}` : `/models/new?draft=${d.fresh}`;
          return (
            <li key={d.mid || d.fresh} data-testid="draft-row">
              <span className={styles.draftBadge}>Draft</span>
              <Link href={href}>{d.title}</Link>
              <span className={styles.muted}>{d.mid ? `${d.mid}, from v${d.base_ver}` : 'a new workflow, not deployed yet'}</span>
              <span className={styles.muted}>saved {new Date(d.update_time).toLocaleString()}</span>
              <Button size="sm" variant="ghost" icon="x" busy={discarding === JSON.stringify(key)} onClick={() => discard.mutate({ key })} aria-label={`Discard the draft ${d.title}`}>
                Discard
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
