/**
 * Archiving models, for admins: the Archive button of a row (confirmed in place: idle → confirming
 * → archiving → gone from the list, or failed with the error shown) and the Archived workflows
 * section under the list (shown on demand; each with Un-archive and Delete). An archived model
 * starts no new run; its running ones go on and its page, versions and runs stay readable. Only an
 * archived model can be deleted (confirmed the same way): its versions and schedules go, the
 * runs it started stay in the runs list. A model whose processes still run is not deleted
 * (`model.in_use`: the refusal says how many run on which version, with a link to them).
 */
'use client';
import Link from 'next/link';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './models-list.module.css';

const REFRESHED = ['models.list'] as const;

/** What a confirmed model change says and does: its button, question, confirmation and failure. */
interface Confirmed {
  verb: string;
  label: string;
  question: string;
  confirm: string;
  failed: string;
  procedure: 'models.archive' | 'models.remove';
}

const ARCHIVE: Confirmed = {
  verb: 'Archive',
  label: 'archiving',
  question: 'Archive it? It starts no new runs; running ones go on.',
  confirm: 'Yes, archive',
  failed: 'The model was not archived',
  procedure: 'models.archive',
};

const DELETE: Confirmed = {
  verb: 'Delete',
  label: 'deleting',
  question: 'Delete it for good? Its versions and schedules are removed; the runs it started stay listed. A model with running processes is not deleted.',
  confirm: 'Yes, delete',
  failed: 'The model was not deleted',
  procedure: 'models.remove',
};

/** A button that asks in place before it changes model `mid`. */
function ConfirmedButton({ mid, name, what }: { mid: string; name: string; what: Confirmed }) {
  const [confirming, setConfirming] = useState(false);
  const change = useApiMutation(what.procedure, { invalidates: [...REFRESHED] });
  if (!confirming) {
    return (
      <Button size="sm" variant="ghost" aria-label={`${what.verb} ${name}`} onClick={() => setConfirming(true)}>
        {what.verb}
      </Button>
    );
  }
  return (
    <div className={styles.confirm} role="group" aria-label={`Confirm ${what.label} ${name}`}>
      <span>{what.question}</span>
      <Button size="sm" variant="danger" busy={change.isPending} onClick={() => change.mutate({ id: mid })}>
        {what.confirm}
      </Button>
      <Button size="sm" variant="ghost" disabled={change.isPending} onClick={() => setConfirming(false)}>
        Keep it
      </Button>
      {change.error ? <ErrorNote error={change.error} title={what.failed} /> : null}
      {change.error?.code === 'model.in_use' ? <Link href={`/runs?model=${encodeURIComponent(mid)}`}>See its runs</Link> : null}
    </div>
  );
}

export function ArchiveButton({ mid, name }: { mid: string; name: string }) {
  return <ConfirmedButton mid={mid} name={name} what={ARCHIVE} />;
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
              {admin ? (
                <>
                  <UnarchiveButton mid={model.id} name={model.name || model.id} />
                  <ConfirmedButton mid={model.id} name={model.name || model.id} what={DELETE} />
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
