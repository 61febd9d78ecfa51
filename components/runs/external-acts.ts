/**
 * Acts of external packages (run by remote workers): the set of such packages (`packages.list`,
 * read once in five minutes), and how a task of one that waits is shown — waiting for a worker
 * (`interrupted:worker`), not for a person. One rule for the graph, the timeline and the details.
 */
'use client';
import { useMemo } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { WORKER_WAIT_STATE } from '../ui/states.ts';

/** The names of the external packages. */
export function useExternalPackages(): ReadonlySet<string> {
  const packages = useApiQuery('packages.list', undefined, { staleTime: 300_000 });
  return useMemo(() => new Set((packages.data?.rows ?? []).filter((p) => p.external).map((p) => p.id)), [packages.data]);
}

/** `state` as shown for a task using `uses`: a waiting act of an external package waits for a worker. */
export function workerAware(state: string, uses: string | undefined, external: ReadonlySet<string>): string {
  return state === 'interrupted' && uses !== undefined && external.has(uses) ? WORKER_WAIT_STATE : state;
}
