/**
 * The designer page's client component: loads the model's latest version (or `?ver=`) for
 * `/models/[id]`, or starts from a new workflow for `/models/new`, then renders the workspace
 * (keyed by model and version, so opening another version starts a fresh undo history).
 */
'use client';
import { useParams, useRouter, useSearchParams } from 'next/navigation';
import { useApiQuery } from '../data/use-api.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { newWorkflowSource } from './new-workflow.ts';
import { Workspace } from './workspace.tsx';

export function NewWorkflowDesigner() {
  return <Workspace initial={newWorkflowSource()} deployed={null} />;
}

export function ModelDesigner() {
  const { id } = useParams<{ id: string }>();
  const modelId = decodeURIComponent(id);
  const search = useSearchParams();
  const router = useRouter();
  const ver = Number(search.get('ver')) || undefined;
  const model = useApiQuery('models.get', { id: modelId, ver }, { refetchOnWindowFocus: false });
  if (model.error) return <ErrorNote error={model.error} title={`Model ${modelId} could not be opened`} onRetry={() => model.refetch()} />;
  if (!model.data) return <Spinner label="Loading the model" />;
  return (
    <Workspace
      key={`${model.data.id}@${model.data.ver}`}
      initial={model.data.source}
      deployed={{ id: model.data.id, ver: model.data.ver }}
      onOpenVersion={(v) => router.push(`/models/${encodeURIComponent(modelId)}?ver=${v}`)}
    />
  );
}
