/**
 * The runs page: filters, bulk actions for operators (bulk-bar.tsx: rows picked with checkboxes,
 * or every run matching the filter), a sortable virtualised page of processes, a pager, live
 * refreshes through the model rooms of what is shown, and an empty state that says what to do.
 *
 * State: filters, sort and page in the URL (use-runs-view.ts; a filter or sort change returns to
 * the first page); the list itself is the `processes.list` read, refetched when a model room has
 * news; the bulk selection (use-run-selection.ts), cleared by a filter change.
 */
'use client';
import Link from 'next/link';
import { useMemo } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { EmptyState } from '../ui/empty-state.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { BulkBar, useBulkActions } from './bulk-bar.tsx';
import { ModelRooms } from './model-rooms.tsx';
import { anyFilter, NO_FILTERS, RunsFilters, useModelIds, type RunFilters } from './runs-filters.tsx';
import { RunsTable, type Sort } from './runs-table.tsx';
import styles from './runs.module.css';
import { runsFilterInput } from './runs-view.ts';
import { useRunSelection } from './use-run-selection.ts';
import { useRunsView } from './use-runs-view.ts';

const PAGE_SIZE = 200;

function Pager({ page, count, onPage }: { page: number; count: number; onPage: (page: number) => void }) {
  if (count <= PAGE_SIZE && page === 1) return <p className={styles.muted}>{count === 1 ? '1 run' : `${count} runs`}</p>;
  const offset = (page - 1) * PAGE_SIZE;
  return (
    <nav className={styles.pager} aria-label="Pages of runs">
      <Button size="sm" disabled={page === 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        {offset + 1}–{Math.min(count, offset + PAGE_SIZE)} of {count}
      </span>
      <Button size="sm" disabled={offset + PAGE_SIZE >= count} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

export function RunsList() {
  const [view, setView] = useRunsView();
  const { filters, sort, page } = view;
  const offset = (page - 1) * PAGE_SIZE;
  const models = useModelIds();
  const filterInput = useMemo(() => runsFilterInput(filters), [filters]);
  const input = useMemo(() => ({ offset, limit: PAGE_SIZE, sort, ...filterInput }), [filterInput, sort, offset]);
  const list = useApiQuery('processes.list', input, { placeholderData: (previous) => previous });
  const bulkActions = useBulkActions();
  const pagePids = useMemo(() => list.data?.rows.map((r) => r.pid) ?? [], [list.data]);
  const selection = useRunSelection(pagePids, list.data?.count ?? 0, JSON.stringify(filterInput));
  const rooms = filters.mid ? [filters.mid] : models;
  const filtered = anyFilter(filters) || page > 1;

  // a filter or sort change returns to the first page
  const setFilters = (next: RunFilters) => setView({ ...view, filters: next, page: 1 });
  const setSort = (next: Sort) => setView({ ...view, sort: next, page: 1 });

  return (
    <section className={styles.runs} aria-busy={list.isFetching || undefined}>
      <ModelRooms mids={rooms} cursor={list.data?.cursor ?? null} />
      <RunsFilters value={filters} onChange={setFilters} models={models} />
      {bulkActions.length > 0 && list.data ? <BulkBar actions={bulkActions} selection={selection} count={list.data.count} filter={filterInput} /> : null}
      {list.error ? (
        <ErrorNote error={list.error} title="The runs could not be read" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Spinner label="Loading runs" />
      ) : list.data.rows.length === 0 ? (
        filtered ? (
          <EmptyState icon="activity" title="No run matches these filters" action={<Button onClick={() => setFilters(NO_FILTERS)}>Clear filters</Button>}>
            Search for something else, widen the time range or pick another state or model.
          </EmptyState>
        ) : (
          <EmptyState icon="activity" title="No workflow has run yet" action={<Link href="/models">Open the models</Link>}>
            Start a run from a model&apos;s Run button (or with <code>acts start</code>); it shows up here live.
          </EmptyState>
        )
      ) : (
        <>
          <RunsTable rows={list.data.rows} sort={sort} onSort={setSort} selection={bulkActions.length > 0 ? selection.rows : undefined} />
          <Pager page={page} count={list.data.count} onPage={(next) => setView({ ...view, page: next })} />
        </>
      )}
    </section>
  );
}
