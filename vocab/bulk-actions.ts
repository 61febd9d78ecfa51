/**
 * The bulk actions of the runs list (issue 14 item 5), one table for the server (server/api/bulk,
 * which adds each action's per-run call) and the studio (its buttons, confirmation and result
 * words): the permission each needs (vocab/roles.ts), and how a run's result reads. A run's
 * result is `done` (the action took effect), `skipped` (the run is not one the action acts on,
 * e.g. it had already ended) or `refused` (with the refusal's code and sentence). `migrate` (issue
 * 16) runs the same way but starts from a version's migration plan, not from the runs list.
 */
import type { Permission } from './roles.ts';

export interface BulkActionTraits {
  /** The button's word. */
  label: string;
  /** What a run became when the action took effect. */
  done: string;
  /** Why a run was left as it is. */
  skipped: string;
  /** The confirmation's warning. */
  warning: string;
  permission: Permission;
  /** Started with a plan of its own (the migration dialog), not from the runs list's bar. */
  planned?: true;
}

export const BULK_ACTIONS = {
  abort: {
    label: 'Abort',
    done: 'aborted',
    skipped: 'already ended',
    warning: 'Open tasks stop and the runs cannot be resumed.',
    permission: 'operate',
  },
  retry: {
    label: 'Retry incidents of',
    done: 'retried',
    skipped: 'no open incident',
    warning: 'The failed act of every open incident runs again (docs/server.md, "Debugging runs").',
    permission: 'operate',
  },
  fail: {
    label: 'Fail incidents of',
    done: 'incident failed',
    skipped: 'no open incident',
    warning: 'The error of every open incident goes on: a run ends in error unless a catch handles it.',
    permission: 'operate',
  },
  migrate: {
    label: 'Migrate',
    done: 'migrated',
    skipped: 'ended, or on the target version already',
    warning: 'Each run moves to the target version whole or not at all; a run that cannot follow the plan stays exactly as it is.',
    permission: 'design',
    planned: true,
  },
} as const satisfies Record<string, BulkActionTraits>;

export type BulkActionName = keyof typeof BULK_ACTIONS;
/** The actions of the runs list's bar (every one but those started with a plan of their own). */
export type RunsListActionName = { [K in BulkActionName]: (typeof BULK_ACTIONS)[K] extends { planned: true } ? never : K }[BulkActionName];
export const BULK_ACTION_NAMES = (Object.keys(BULK_ACTIONS) as BulkActionName[]).filter((name): name is RunsListActionName => !('planned' in BULK_ACTIONS[name]));

/** Most runs one bulk action takes (a filter matching more is refused: narrow it). */
export const MAX_BULK_RUNS = 10_000;

export const BULK_OUTCOMES = ['done', 'skipped', 'refused'] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

/** How one run of a bulk action ended. */
export interface BulkRunResult {
  pid: string;
  outcome: BulkOutcome;
  /** The refusal's code (`auth.forbidden`, `action.refused`, `process.not_found` …). */
  code?: string;
  message?: string;
}
