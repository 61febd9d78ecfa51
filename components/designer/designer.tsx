/**
 * The designer page's client component: loads the model's latest version (or `?ver=`) for
 * `/models/[id]`, or starts a new workflow for `/models/new?draft=<key>` (a page without a key
 * gets a fresh one), with the user's draft of it (use-draft.ts), then renders the workspace
 * (keyed by model and version, so opening another version starts a fresh undo history). The
 * latest version opens with the user's draft when there is one; `?ver=` opens that version as it
 * is — read-only while the user has a draft of the model, until they choose to edit it (an edit
 * saves the model's one draft, replacing theirs).
 */
'use client';
import { useParams, useRouter, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { useMe } from '../data/auth.ts';
import { useApiQuery } from '../data/use-api.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { newDraftKey, validDraftKey } from './draft-keys.ts';
import { newWorkflowSource } from './new-workflow.ts';
import { Workspace } from './workspace.tsx';
import type { DraftKey } from './use-draft.ts';

/**
 * The user's draft of `key` (designers only; never from the cache: another tab may have changed
 * it, and so may this one between two views of the model — `view` names each, e.g. the version shown).
 */
function useRestoredDraft(key: DraftKey | null, wanted: boolean, view?: string) {
  const me = useMe();
  const enabled = key !== null && wanted && me.can('design');
  const draft = useApiQuery('drafts.get', { key: key ?? { fresh: '' } }, { enabled, gcTime: 0, refetchOnWindowFocus: false, view });
  const loading = me.status === 'loading' || (enabled && draft.isLoading);
  return { loading, draft: enabled ? (draft.data ?? null) : null, error: enabled ? draft.error : null, retry: () => void draft.refetch() };
}

export function NewWorkflowDesigner() {
  const search = useSearchParams();
  const router = useRouter();
  const fresh = search.get('draft');
  const key = fresh && validDraftKey(fresh) ? fresh : null;
  useEffect(() => {
    if (!key) router.replace(`/models/new?draft=${newDraftKey()}`);
  }, [key, router]);
  const restored = useRestoredDraft(key ? { fresh: key } : null, true);
  if (restored.error) return <ErrorNote error={restored.error} title="Your draft could not be read" onRetry={restored.retry} />;
  if (!key || restored.loading) return <Spinner label="Opening the designer" />;
  return <Workspace key={key} original={newWorkflowSource()} deployed={null} draftKey={{ fresh: key }} restored={restored.draft} />;
}

export function ModelDesigner() {
  const { id } = useParams<{ id: string }>();
  const modelId = decodeURIComponent(id);
  const search = useSearchParams();
  const router = useRouter();
  const ver = Number(search.get('ver')) || undefined;
  const model = useApiQuery('models.get', { id: modelId, ver }, { refetchOnWindowFocus: false });
  const mine = useRestoredDraft({ mid: modelId }, true, `v${ver ?? 'latest'}`);
  if (model.error) return <ErrorNote error={model.error} title={`Model ${modelId} could not be opened`} onRetry={() => model.refetch()} />;
  if (mine.error) return <ErrorNote error={mine.error} title="Your draft could not be read" onRetry={mine.retry} />;
  if (!model.data || mine.loading) return <Spinner label="Loading the model" />;
  return (
    <Workspace
      key={`${model.data.id}@${model.data.ver}`}
      original={model.data.source}
      deployed={{ id: model.data.id, ver: model.data.ver }}
      draftKey={{ mid: model.data.id }}
      restored={ver === undefined ? mine.draft : null}
      draftElsewhere={ver === undefined ? null : mine.draft}
      onOpenVersion={(v) => router.push(`/models/${encodeURIComponent(modelId)}?ver=${v}`)}
    />
  );
}
