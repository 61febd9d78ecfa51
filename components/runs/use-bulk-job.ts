/**
 * Follows one bulk action (`bulk.status`): its progress and every run's result, read in pages
 * (each read asks for the results after the ones already here), every POLL_MS while it runs.
 *
 * State: polling → done (the job ended and every result is read) or failed (a read failed: the
 * error is shown; the hook stops). A new job id starts over.
 */
'use client';
import { useEffect, useState } from 'react';
import { callQuery } from '../data/api-client.ts';
import type { ApiOutput } from '../data/api-types.ts';
import { toApiError, type ApiError } from '../data/api-error.ts';
import type { BulkRunResult } from '../../vocab/bulk-actions.ts';

const POLL_MS = 400;

export type BulkStatus = Omit<ApiOutput<'bulk.status'>, 'results' | 'resultsFrom'>;

export interface BulkJobView {
  status: BulkStatus | null;
  results: readonly BulkRunResult[];
  /** The job ended and every result was read. */
  done: boolean;
  error: ApiError | null;
}

const EMPTY: BulkJobView = { status: null, results: [], done: false, error: null };

export function useBulkJob(job: string): BulkJobView {
  const [view, setView] = useState<BulkJobView & { job: string }>({ ...EMPTY, job });
  useEffect(() => {
    const stop = new AbortController();
    let results: BulkRunResult[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (): Promise<void> => {
      try {
        const { results: more, resultsFrom: _from, ...status } = await callQuery('bulk.status', { job, resultsFrom: results.length }, stop.signal);
        if (stop.signal.aborted) return;
        results = [...results, ...more];
        const done = status.state === 'done' && results.length >= status.processed;
        setView({ job, status, results, done, error: null });
        // more results waiting: read on at once
        if (!done) timer = setTimeout(() => void poll(), more.length > 0 && results.length < status.processed ? 0 : POLL_MS);
      } catch (err) {
        if (!stop.signal.aborted) setView((prev) => ({ ...prev, error: toApiError(err) }));
      }
    };
    void poll();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [job]);
  return view.job === job ? view : EMPTY;
}
