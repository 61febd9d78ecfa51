/**
 * The error codes the engine (server/engine) throws, each listed once with what callers rely on.
 * The codes are a contract (API answers, the CLI's JSON failure lines): never rename one. The
 * server's own codes are in server-codes.ts; test/vocabulary.test.ts checks that every code thrown
 * is listed and every listed code is thrown.
 */

/** What a code means for whoever meets it. Flags that are absent are false. */
export interface CodeTraits {
  /** The same request may succeed later, unchanged (the CLI prints it as `retryable`; `acts wait` retries it). */
  retryable: boolean;
  /** The HTTP status of the API's answer; absent for a client's own codes (no acts answer came). */
  http?: number;
  /** The studio retries a read that failed with it by itself, a few times within seconds. */
  autoRetry?: true;
  /** The request itself is wrong (input, usage): the CLI exits 2 like any invalid input. */
  invalidRequest?: true;
  /** Its message may hold server internals (SQL, paths, URLs): clients get a generic text. */
  hidden?: true;
  /** What it means, where the name does not say it all. */
  about?: string;
}

export const ENGINE_CODES = {
  'model.invalid': { retryable: false, http: 400, invalidRequest: true, about: 'a model document failed parsing or validation (see `details`: the problems)' },
  'model.not_found': { retryable: false, http: 404 },
  'model.version_not_latest': { retryable: false, http: 409, about: "the call names a model version that is not the model's latest (only the latest starts new runs)" },
  'model.archived': { retryable: false, http: 409, about: 'the model is archived: it starts no new process (its running ones go on); an admin can un-archive it' },
  'process.not_found': { retryable: false, http: 404 },
  'process.duplicate_pid': { retryable: false, http: 409 },
  'process.invalid_pid': { retryable: false, http: 400, invalidRequest: true },
  'process.elsewhere': { retryable: false, http: 412, autoRetry: true, about: 'the process runs on another engine instance (see `details.owner`)' },
  'process.step_budget': { retryable: false, http: 422, about: 'the process created more tasks than its step budget (an endless loop)' },
  'process.rerun_step': { retryable: false, http: 400, invalidRequest: true, about: "a re-run names a step that is not one of the workflow's own steps (one inside a branch or a catch cannot start a run)" },
  'process.migration_refused': { retryable: false, http: 409, about: 'a process cannot follow a migration plan now (see `details.problems`: each reason, vocab/migration.ts); it was left exactly as it was' },
  'process.key_conflict': { retryable: false, http: 409, about: 'an idempotency key already started a process with another model or other inputs' },
  'inputs.invalid': { retryable: false, http: 400, invalidRequest: true },
  'task.not_found': { retryable: false, http: 404 },
  'action.unknown': { retryable: false, http: 400, invalidRequest: true },
  'action.refused': { retryable: false, http: 409, about: 'a precondition of a client action failed; nothing changed' },
  'escalate.no_task': { retryable: false, http: 409, about: 'an acts.core.escalate act ran with no open interrupt above it (put it in the timeout steps of an irq act)' },
  'action.invalid_options': { retryable: false, http: 400, invalidRequest: true },
  'action.answer_required': { retryable: false, http: 400, invalidRequest: true, about: "an interrupt act's required answer (its params' `schema.required`) is missing, null or blank; nothing changed (see `details.fields`)" },
  'action.answer_invalid': { retryable: false, http: 400, invalidRequest: true, about: "an interrupt act's answer does not fit the types of its fields (its params' `schema.properties`): the message is one sentence per problem, `details.problems` lists them (`{ field, code, message, index? }`, vocab/answer-problems.ts); nothing changed" },
  'action.comment_required': { retryable: false, http: 400, invalidRequest: true, about: "the `outcome` action chose an outcome that requires a comment (`comment: required`) without a non-blank option `comment`; nothing changed (see `details.outcome`)" },
  'action.unknown_outcome': { retryable: false, http: 400, invalidRequest: true, about: "the `outcome` action named an outcome the interrupt act does not declare (its params' `outcomes`); nothing changed (see `details.outcomes`)" },
  'vote.not_quorum': { retryable: false, http: 409, about: 'a vote on an act that is not decided by votes (its params have no `quorum`); nothing changed' },
  'vote.votes_decide': { retryable: false, http: 409, about: 'an act decided by votes (`quorum`) was answered with complete, submit or an outcome (by a non-admin: any task action), or claimed, delegated or reassigned: vote on it instead; nothing changed' },
  'vote.already_voted': { retryable: false, http: 409, about: 'the caller already voted on this act (`details.decision`): each person votes once; nothing changed' },
  'vote.requester_excluded': { retryable: false, http: 403, about: "the caller asked for this approval (who started the run, or the act's `quorum.requester`) and the act excludes the requester: someone else decides; nothing changed" },
  'package.unknown': { retryable: false, http: 404 },
  'package.invalid': { retryable: false, http: 400 },
  'package.not_external': { retryable: false, http: 400, invalidRequest: true, about: 'a worker polled for a package that is not external (not registered with run_as `worker`)' },
  'worker.lease_lost': { retryable: false, http: 409, about: "a worker's answer or extension came under a lease it no longer holds (the lease lapsed and another worker took the act, or the act was answered or ended); nothing changed" },
  'params.invalid': { retryable: false, http: 400, invalidRequest: true },
  'trigger.not_found': { retryable: false, http: 404 },
  'delivery.not_found': { retryable: false, http: 404 },
  'script.error': { retryable: false, http: 400, about: 'an expression or script threw, timed out or ran out of memory' },
  'data.too_large': { retryable: false, http: 413, about: "an act's result, a written value, a task's data or start inputs above value_cap_bytes" },
  'http.bad_url': { retryable: false, http: 400, about: "an `acts.core.http` act's url is not an absolute http(s) URL (also the act's `ecode`)" },
  'http.denied_host': { retryable: false, http: 403, about: "an `acts.core.http` act called, or was redirected to, a host the engine's host policy denies (ACTS_HTTP_ALLOW/DENY/DENY_PRIVATE; also the act's `ecode`)" },
  'http.timeout': { retryable: true, http: 500, about: "an `acts.core.http` act's call got no whole answer within its `timeout` (also the act's `ecode`)" },
  'http.too_large': { retryable: false, http: 500, about: "an `acts.core.http` act's answer was larger than its `max_bytes` (also the act's `ecode`)" },
  'http.failed': { retryable: true, http: 500, about: "an `acts.core.http` act's call failed before an answer came: no connection, a reset, a bad name (also the act's `ecode`)" },
  'http.redirects': { retryable: false, http: 500, about: "an `acts.core.http` act's call was redirected more than 5 times, or to a place that is not an http(s) URL (also the act's `ecode`)" },
  'shell.disabled': { retryable: false, http: 403, about: "an `acts.app.shell` act on a server whose configuration leaves shell acts off (ACTS_SHELL_ENABLE; also the act's `ecode`; deploy reports it as the problem model.package_off)" },
  'shell.unavailable': { retryable: false, http: 500, about: "an `acts.app.shell` act named a shell this server has not installed (also the act's `ecode`)" },
  'shell.exit': { retryable: false, http: 500, about: "an `acts.app.shell` act's script exited with a code other than 0 (also the act's `ecode`; the code is the act's `exit_code`, stderr its `stderr` and the message's end)" },
  'shell.timeout': { retryable: true, http: 500, about: "an `acts.app.shell` act's script ran longer than its `timeout` and was killed with its process group (also the act's `ecode`)" },
  'shell.too_large': { retryable: false, http: 500, about: "an `acts.app.shell` act's script wrote more than its `max_bytes` to stdout and was killed (also the act's `ecode`)" },
  'shell.bad_json': { retryable: false, http: 500, about: "an `acts.app.shell` act with `content-type: json` whose script's stdout is not JSON (also the act's `ecode`)" },
  'shell.cancelled': { retryable: false, http: 500, about: "an `acts.app.shell` act was closed (its step cancelled, its process aborted) while its script ran: the script was killed with its group (the act is closed already, so no act gets this ecode)" },
  'shell.failed': { retryable: false, http: 500, about: "an `acts.app.shell` act's script could not start: its directory could not be made, the shell could not be run (also the act's `ecode`)" },
  'state.unavailable': { retryable: true, http: 503, about: "an `acts.app.state` act's store (Redis at ACTS_STATE_REDIS_URL, or the database) could not be reached or failed (also the act's `ecode`)" },
  'secret.unknown': { retryable: false, http: 404, about: "an act's params name a secret (`{{ secrets.NAME }}`) that is not stored, or the server has no ACTS_SECRETS_KEY (also the act's `ecode`)" },
  'config.invalid': { retryable: false, http: 500, hidden: true, about: 'a configuration value or store URL is not usable' },
  'engine.busy': { retryable: true, http: 429, autoRetry: true, about: 'a lane is full or the store writer is saturated: retry shortly' },
  'engine.closed': { retryable: true, http: 503, autoRetry: true, about: 'the engine is shutting down' },
  internal: { retryable: false, http: 500, hidden: true },
} as const satisfies Record<string, CodeTraits>;

export type EngineCode = keyof typeof ENGINE_CODES;
