/**
 * Migrating running processes to another version of their model (issue 16): the one vocabulary
 * the engine (server/engine/migrate.ts), the API, the CLI and the studio share — the plan a
 * designer makes, why a process cannot follow it, and what a migration did.
 *
 * A plan maps every node of the source version to a node of the target: the same id by default,
 * another id where the designer mapped a renamed node. A live task at a node with no target is
 * `block`ed (the process stays as it is) unless the plan says `cancel` for that node: the task is
 * skipped alone (its siblings stay) and its flow goes on in the target version. Finished tasks at
 * nodes the target does not have are kept as history ("retired" nodes).
 */

/** The action that migrates a process (applied to its root task '$', like `abort`); its options are a `MigrationPlan`. */
export const MIGRATE_ACTION = 'migrate';

/** What happens to a live task at a node the target version does not have. */
export const REMOVED_POLICIES = ['block', 'cancel'] as const;
export type RemovedPolicy = (typeof REMOVED_POLICIES)[number];

export interface MigrationPlan {
  /** The target version of the process's model. */
  ver: number;
  /** Source node id → target node id, where they differ (a renamed node); the rest map by id. */
  map?: Record<string, string>;
  /** Source node ids with no target: what happens to a live task there (default `block`). */
  removed?: Record<string, RemovedPolicy>;
}

/** Why a process cannot follow a plan; each code has a sentence built where it is found. */
export const MIGRATION_PROBLEMS = {
  finished: 'the process has ended',
  parked: 'the process waits for a free slot and has not started',
  same_version: 'the process already runs the target version',
  other_model: 'the target is a version of another model',
  no_target: 'a live task is at a node the target does not have, and the plan does not cancel it',
  kind_changed: 'a live task would move to a node of another kind',
  act_changed: 'a started act would move to a node that runs another package',
  parent_moved: 'a live task would move out of the task that encloses it',
  subflow_moved: 'a running subflow act would move out of the task that encloses it',
  cancel_not_act: 'only acts can be cancelled by a migration; a live step or branch needs a target',
  inputs_rejected: "the process's inputs do not match the target's inputs schema",
  busy: 'the process is waiting for a code worker; try again in a moment',
} as const;
export type MigrationProblemCode = keyof typeof MIGRATION_PROBLEMS;

export interface MigrationProblem {
  code: MigrationProblemCode;
  /** The task concerned, or null for the whole process. */
  tid: string | null;
  /** Its node id in the source version, or null. */
  nid: string | null;
  /** A sentence a person can act on. */
  message: string;
}

/** What one migration did to one process. */
export interface MigrationReport {
  pid: string;
  from: number;
  to: number;
  /** Tasks that moved to a node with another id. */
  moved: number;
  /** Live tasks the plan cancelled (at removed nodes). */
  cancelled: string[];
  /** Finished tasks kept at nodes the target does not have. */
  retired: number;
}

/** The problems that say a process is not a candidate at all (a bulk migration skips it). */
export function isSkipProblem(code: MigrationProblemCode): boolean {
  return code === 'finished' || code === 'same_version';
}
