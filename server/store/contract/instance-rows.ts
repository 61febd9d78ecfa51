/**
 * The rows that coordinate engine instances sharing a store: the instances with their leases
 * (server/runtime/instances.ts) and the idempotency keys whose start is in flight
 * (server/runtime/start-keys.ts); and the per-process values of state acts. Part of the store
 * boundary (types.ts re-exports them).
 */

/** One value an `acts.app.state` act set (server/runtime/state/): per process, by key. */
export interface StateRow {
  id: string; // `<pid>:<key>`
  pid: string;
  key: string;
  /** The value as set (any JSON value). */
  value: unknown;
  update_time: number;
}

/** One running engine instance and its lease (server/runtime/instances.ts). */
export interface InstanceRow {
  id: string;
  /** `os.hostname()` and process id of the engine's process. */
  host: string;
  pid: number;
  /** The instance is live until then (epoch ms); it renews the lease while it runs. */
  lease_until: number;
  started: number;
}

/**
 * A start with an idempotency key in flight (server/runtime/start-keys.ts): the instance that
 * claimed the key is writing the process `pid`; the claim is deleted once that start ended.
 */
export interface StartClaimRow {
  id: string; // the idempotency key
  /** The pid the claimed start writes (a takeover of the same start keeps it). */
  pid: string;
  /** The digest of the claimed start (model id and options). */
  digest: string;
  /** The engine instance that claimed the key (`InstanceRow.id`). */
  instance: string;
  /** When it claimed it (epoch ms); with `instance`, tells one claim from a later one. */
  claimed: number;
}
