/**
 * Archiving models, for admins: the Archive button of a row (confirmed in place: idle → confirming
 * → archiving → gone from the list, or failed with the error shown) and the Archived workflows
 * section under the list (shown on demand; each with Un-archive). An archived model starts no new
 * run; its running ones go on and its page, versions and runs stay readable.
 */
'use client';
import Link from 'next/link';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './models-list.module.css';

const REFRESHED = ['models.list'] as const;

export function ArchiveButton({ mid, name }: { mid: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  const archive = useApiMutation('models.archive', { invalidates: [...REFRESHED] });
  if (!confirming) {
    return (
      <Button size="sm" variant="ghost" aria-label={`Archive ${name}`} onClick={() => setConfirming(true)}>
        Archive
      </Button>
    );
  }
  return (
    <div className={styles.confirm} role="group" aria-label={`Confirm archiving ${name}`}>
      <span>Archive it? It starts no new runs; running ones go on.</span>
      <Button size="sm" variant="danger" busy={archive.isPending} onClick={() => archive.mutate({ id: mid })}>
        Yes, archive
      </Button>
      <Button size="sm" variant="ghost" disabled={archive.isPending} onClick={() => setConfirming(false)}>
        Keep it
      </Button>
      {archive.error ? <ErrorNote error={archive.error} title="The model was not archived" /> : null}
    </div>
  );
}

function UnarchiveButton({ mid, name }: { mid: string; name: string }) {
  const unarchive = useApiMutation('models.unarchive', { invalidates: [...REFRESHED] });
  return (
    <>
      <Button size="sm" busy={unarchive.isPending} aria-label={`Un-archive ${name}`} onClick={() => unarchive.mutate({ id: mid })}>
        Un-archive
      </Button>
      {unarchive.error ? <ErrorNote error={unarchive.error} title="The model was not un-archived" /> : null}
    </>
  );
}

/** The archived models, under a toggle; `admin`: with Un-archive buttons. */
export function ArchivedModels({ admin }: { admin: boolean }) {
  const [shown, setShown] = useState(false);
  const archived = useApiQuery('models.list', { offset: 0, limit: 100, archived: true });
  const rows = archived.data?.rows ?? [];
  if (rows.length === 0 && !shown) return null;
  return (
    <section className={styles.archived} aria-label="Archived workflows">
      <Button size="sm" variant="ghost" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? 'Hide archived workflows' : `Show archived workflows (${rows.length})`}
      </Button>
      {shown ? (
        <ul>
          {rows.map((model) => (
            <li key={model.id} data-model={model.id}>
              <Link href={`/models/${encodeURIComponent(model.id)}`}>{model.name || model.id}</Link>{' '}
              <span className={styles.muted}>
                {model.id} · archived {new Date(model.archived).toLocaleString()}
              </span>
              {admin ? <UnarchiveButton mid={model.id} name={model.name || model.id} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
