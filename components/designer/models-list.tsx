/**
 * The /models list: each model with its latest version, last deploy (time, by whom, note) and its
 * run count; the header actions create a workflow or import a YAML file; admins archive a model
 * and bring it back (model-archive.tsx). The import's state is the mutation's (idle → importing →
 * opened | failed with the error shown).
 */
'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef } from 'react';
import { useMe } from '../data/auth.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { EmptyState } from '../ui/empty-state.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { newDraftKey } from './draft-keys.ts';
import { ArchiveButton, ArchivedModels } from './model-archive.tsx';
import styles from './models-list.module.css';

function RunCount({ mid }: { mid: string }) {
  const runs = useApiQuery('processes.list', { mid, limit: 1 }, { staleTime: 30_000 });
  return <>{runs.data ? runs.data.count : '…'}</>;
}

export function ModelsActions() {
  const me = useMe();
  const router = useRouter();
  const file = useRef<HTMLInputElement>(null);
  const imported = useApiMutation('models.import', { invalidates: ['models.list'], onSuccess: (m) => router.push(`/models/${encodeURIComponent(m.id)}`) });
  if (!me.can('design')) return null;
  return (
    <div className={styles.actions}>
      {imported.error ? <ErrorNote error={imported.error} title="The file was not imported" /> : null}
      <Button icon="refresh" busy={imported.isPending} onClick={() => file.current?.click()}>
        Import YAML
      </Button>
      <input
        ref={file}
        type="file"
        hidden
        accept=".yml,.yaml,text/yaml,application/yaml"
        aria-label="Import a workflow YAML file"
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (chosen) void chosen.text().then((source) => imported.mutate({ source }));
        }}
      />
      <Button variant="primary" icon="workflow" onClick={() => router.push(`/models/new?draft=${newDraftKey()}`)}>
        New workflow
      </Button>
    </div>
  );
}

export function ModelsList() {
  const list = useApiQuery('models.list', { offset: 0, limit: 100 });
  const me = useMe();
  const admin = me.can('admin');
  if (list.error) return <ErrorNote error={list.error} onRetry={() => list.refetch()} />;
  if (!list.data) return <Spinner label="Loading models" />;
  if (list.data.rows.length === 0) {
    return (
      <>
        <EmptyState icon="workflow" title="No workflows yet">
          {me.can('design') ? 'Press "New workflow" to build one from the palette, or import a YAML file.' : 'A designer deploys workflows; they will be listed here.'}
        </EmptyState>
        <ArchivedModels admin={admin} />
      </>
    );
  }
  return (
    <>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Workflow</th>
            <th scope="col">Version</th>
            <th scope="col">Last deploy</th>
            <th scope="col">Note</th>
            <th scope="col">Runs</th>
            {admin ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {list.data.rows.map((model) => {
            const last = model.versions.reduce<(typeof model.versions)[number] | undefined>((a, v) => (!a || v.ver > a.ver ? v : a), undefined);
            return (
              <tr key={model.id}>
                <td>
                  <Link href={`/models/${encodeURIComponent(model.id)}`}>{model.name || model.id}</Link>
                  <div className={styles.muted}>{model.id}</div>
                </td>
                <td>v{model.ver}</td>
                <td>
                  {new Date(last?.create_time ?? model.update_time).toLocaleString()}
                  <div className={styles.muted}>{last?.deployed_by ? `by ${last.deployed_by}` : 'by the CLI or API'}</div>
                </td>
                <td>{last?.note || <span className={styles.muted}>—</span>}</td>
                <td>
                  <RunCount mid={model.id} />
                </td>
                {admin ? (
                  <td>
                    <ArchiveButton mid={model.id} name={model.name || model.id} />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      <ArchivedModels admin={admin} />
    </>
  );
}
