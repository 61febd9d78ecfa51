/**
 * What the runs list shows — filters, sort and page — as URL search parameters, so a filtered
 * view can be shared and survives a reload:
 *   /runs?q=ada&model=expense&ver=3&state=error&from=2025-03-01T09:00&to=2025-03-02T00:00&failing=pay&stuck=1&sort=name.asc&page=2
 * Defaults (no filter, newest first, page 1) are left out; unknown or malformed values are ignored.
 */
import { fromLocalInput } from './format.ts';
import { ENDED_ON_OUTCOME, NO_FILTERS, STATE_FILTERS, type RunFilters } from './runs-filters.tsx';
import type { Sort, SortField } from './runs-table.tsx';

export interface RunsView {
  filters: RunFilters;
  sort: Sort;
  /** 1-based. */
  page: number;
}

export const DEFAULT_SORT: Sort = { field: 'start_time', order: 'desc' };
export const DEFAULT_VIEW: RunsView = { filters: NO_FILTERS, sort: DEFAULT_SORT, page: 1 };

const SORT_FIELDS: readonly SortField[] = ['start_time', 'end_time', 'state', 'name'];
/** `datetime-local` values: `2025-03-01T09:00`, optionally with seconds. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

function parseSort(value: string | null): Sort {
  const [field, order] = (value ?? '').split('.');
  if (!SORT_FIELDS.includes(field as SortField) || (order !== 'asc' && order !== 'desc')) return DEFAULT_SORT;
  return { field: field as SortField, order };
}

const localTime = (value: string | null) => (value && LOCAL_TIME.test(value) ? value : '');

export function parseRunsView(params: { get(name: string): string | null }): RunsView {
  const state = params.get('state') ?? '';
  const page = Number(params.get('page'));
  return {
    filters: {
      search: (params.get('q') ?? '').trim().slice(0, 200),
      mid: params.get('model') ?? '',
      ver: /^[1-9]\d{0,8}$/.test(params.get('ver') ?? '') ? params.get('ver')! : '',
      state: STATE_FILTERS.includes(state) ? state : '',
      from: localTime(params.get('from')),
      to: localTime(params.get('to')),
      failing: (params.get('failing') ?? '').trim().slice(0, 200),
      stuck: params.get('stuck') === '1',
    },
    sort: parseSort(params.get('sort')),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The search string of a view (without `?`; empty for the default view). */
export function runsViewSearch(view: RunsView): string {
  const params = new URLSearchParams();
  const { filters, sort, page } = view;
  if (filters.search) params.set('q', filters.search);
  if (filters.mid) params.set('model', filters.mid);
  if (filters.ver) params.set('ver', filters.ver);
  if (filters.state) params.set('state', filters.state);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.failing) params.set('failing', filters.failing);
  if (filters.stuck) params.set('stuck', '1');
  if (sort.field !== DEFAULT_SORT.field || sort.order !== DEFAULT_SORT.order) params.set('sort', `${sort.field}.${sort.order}`);
  if (page > 1) params.set('page', String(page));
  return params.toString();
}

/** The filter fields of `processes.list` (and of a bulk action's selection) for the list's filters. */
export function runsFilterInput(filters: RunFilters) {
  const from = fromLocalInput(filters.from);
  const to = fromLocalInput(filters.to);
  const ver = Number(filters.ver);
  return {
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.mid ? { mid: filters.mid } : {}),
    ...(Number.isInteger(ver) && ver > 0 ? { ver } : {}),
    ...(filters.state === ENDED_ON_OUTCOME ? { outcome: true } : filters.state ? { state: filters.state } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(filters.failing.trim() ? { failingNode: filters.failing.trim() } : {}),
    ...(filters.stuck ? { stuck: true } : {}),
  };
}
