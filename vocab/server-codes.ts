/**
 * The error codes of the server (server/api, server/auth, server/http; the engine never throws
 * them) and the codes clients make when no acts answer came (the CLI, the studio), each listed
 * once, beside the engine's codes (engine-codes.ts). Codes are a contract: never rename one.
 */
import { ENGINE_CODES, type CodeTraits, type EngineCode } from './engine-codes.ts';

export const API_CODES = {
  'auth.required': { retryable: false, http: 401, about: 'no valid session or API token' },
  'auth.forbidden': { retryable: false, http: 403, about: 'signed in, but the role (or assignee list) does not allow it' },
  'auth.invalid': { retryable: false, http: 401, about: 'wrong user name or password' },
  'auth.rate_limited': {
    retryable: true,
    http: 429,
    about: 'too many failed logins; retry after `details.retryAfterSecs` (`details.reason`: address, name_and_address, name)',
  },
  'auth.setup_done': { retryable: false, http: 409, about: 'the one-time admin setup was already done' },
  'user.not_found': { retryable: false, http: 404 },
  'user.duplicate': { retryable: false, http: 409 },
  'group.not_found': { retryable: false, http: 404, about: 'no group of that name (see `details.missing` when several were named)' },
  'group.duplicate': { retryable: false, http: 409, about: 'a group of that name already exists' },
  'inbox.not_open': { retryable: false, http: 409, about: 'the task is not waiting for an answer any more (answered or closed): nothing to claim, release or delegate' },
  'inbox.held': { retryable: false, http: 409, about: 'another user holds the task (`details.holder`): they release it, or an admin reassigns it' },
  'inbox.not_holder': { retryable: false, http: 409, about: 'no one holds the task: claim it before releasing or delegating it' },
  'inbox.not_operator': { retryable: false, http: 409, about: 'the user a task is delegated or reassigned to may not answer tasks (no operator role)' },
  'inbox.not_delegate': { retryable: false, http: 409, about: 'only the delegate of a delegated task proposes an answer to it' },
  'inbox.confirm_required': { retryable: false, http: 409, about: "the act's delegations are confirmed by the delegator (`delegation: confirm`): the delegate proposes an answer instead" },
  'inbox.stale': { retryable: true, http: 409, about: 'the task changed hands between reading and changing its hold (`details.holder`: who holds it now); look again and retry' },
  'draft.limit': { retryable: false, http: 409, about: 'the user keeps the most drafts allowed (100); deploy or discard one first' },
  'secret.not_found': { retryable: false, http: 404, about: 'no secret of that name is stored' },
  'secrets.no_key': {
    retryable: false,
    http: 503,
    about: 'the server has no ACTS_SECRETS_KEY: secrets cannot be stored, and a server with stored secrets refuses to start without it',
  },
  'secrets.bad_key': {
    retryable: false,
    http: 500,
    about: 'ACTS_SECRETS_KEY is not 32 bytes in hex or base64, or it is not the key the stored secrets were encrypted with (the server refuses to start)',
  },
  'bulk.too_many': { retryable: false, http: 413, about: 'the filter of a bulk action matches more runs than one action takes (`details.max`, 10,000): narrow it' },
  'bulk.not_found': { retryable: false, http: 404, about: 'no bulk action of that id on this server (it ended more than an hour ago, the server restarted, or it was started by someone else)' },
  'input.invalid': { retryable: false, http: 400, invalidRequest: true, about: 'API input failed its schema (see `details.issues`)' },
  'steptest.invalid': { retryable: false, http: 400, invalidRequest: true, about: "a model's saved step tests (`tests:`) are malformed, or a step test names no step or act of the model (see `details`: the problems)" },
  'steptest.busy': { retryable: true, http: 503, about: 'the server runs as many step tests as it allows at once (2); try again in a moment' },
  'model.in_use': { retryable: false, http: 409, about: 'a model whose versions still run processes is not removed (see `details.running`: per version); migrate, abort or let them end first' },
  'model.tests_failed': { retryable: false, http: 409, about: 'the deploy requires the saved step tests to pass and some failed; nothing was deployed (see `details`: the failing cases)' },
  'input.too_large': { retryable: false, http: 413, invalidRequest: true, about: 'a payload above its size limit' },
  'file.too_large': { retryable: false, http: 413, invalidRequest: true, about: "an upload larger than its answer field's `maxBytes` (at most 5 MiB); nothing was stored (see `details.problems`)" },
  'file.invalid': { retryable: false, http: 400, invalidRequest: true, about: "an upload the task's answer form does not take: no file field of that name, no file name, a media type its `accept` does not list (see `details.problems` where an answer problem says it)" },
  'file.not_found': { retryable: false, http: 404, about: 'no uploaded file of that id (its process was deleted, or the id is wrong)' },
} as const satisfies Record<string, CodeTraits>;

/** Codes of the plain HTTP routes (server/http), beside the API: `{"error":{"code","message"}}`. */
export const HTTP_CODES = {
  not_found: { retryable: false, http: 404, about: 'no route at that path' },
  'hook.method': { retryable: false, http: 405, about: 'a webhook delivery is a POST' },
  'hook.unsigned': { retryable: false, http: 403, about: "the hook trigger names no `secret` in its params: it takes no deliveries until it does" },
  'hook.no_signature': { retryable: false, http: 401, about: 'the delivery carries no signature header of the trigger\'s format' },
  'hook.bad_signature': { retryable: false, http: 401, about: 'the signature does not match the body signed with the stored secret (or is malformed)' },
  'hook.stale': { retryable: false, http: 401, about: 'the signed time is outside the replay window (`tolerance_secs`, default 300 s)' },
  'hook.too_large': { retryable: false, http: 413, about: 'the body is larger than the trigger\'s `max_bytes` (default 1 MiB)' },
  'link.method': { retryable: false, http: 405, about: 'a one-click link is opened (GET) and confirmed (POST)' },
  'link.off': { retryable: false, http: 404, about: 'this server sends no one-click links (no ACTS_SMTP_URL, or no link key): answer in the studio' },
  'link.bad_signature': { retryable: false, http: 403, about: 'the one-click link was altered, cut short, or signed with another key: open the task in the studio' },
  'link.expired': { retryable: false, http: 410, about: 'the one-click link is older than ACTS_MAIL_LINK_HOURS: answer in the studio' },
  'link.used': { retryable: false, http: 409, about: 'the one-click link was used already (`details.result`: how that use ended); each link works once' },
  'link.answered': { retryable: false, http: 409, about: 'the task was already answered (or closed): the link changed nothing' },
  'link.not_allowed': { retryable: false, http: 403, about: 'the link\'s user may not answer the task now (disabled, no longer offered it, or another holds it): nothing changed' },
  'trigger.disabled': { retryable: false, http: 409, about: 'the trigger is disabled (Schedules / triggers.setEnabled)' },
} as const satisfies Record<string, CodeTraits>;

/** Codes of the `acts` command line's remote commands, when the server did not answer with a code. */
export const CLI_CODES = {
  'usage.invalid': { retryable: false, invalidRequest: true, about: 'bad flags, a missing server or token' },
  'server.unreachable': { retryable: true, about: "network, DNS, timeout, or a gateway's 502/503/504 page" },
  'server.bad_response': { retryable: false, about: 'something answered, but not an acts API' },
} as const satisfies Record<string, CodeTraits>;

/** Codes of the studio's API client, when the call never reached the API. */
export const STUDIO_CODES = {
  network: { retryable: true, autoRetry: true, about: 'the server cannot be reached' },
  unavailable: { retryable: false, autoRetry: true, about: "the server's answer cannot be read (a proxy's HTML error page)" },
  browser: { retryable: false, about: 'the page itself failed in the browser (a bug of the studio, not of the server or the input)' },
} as const satisfies Record<string, CodeTraits>;

export type ApiCode = keyof typeof API_CODES;
export type CliCode = keyof typeof CLI_CODES;
export type StudioCode = keyof typeof STUDIO_CODES;

/** Every code an API error carries (`ActError.code`): the engine's and the server's. */
export type ErrorCode = EngineCode | ApiCode;

const ALL: Readonly<Record<string, CodeTraits>> = { ...ENGINE_CODES, ...API_CODES, ...HTTP_CODES, ...CLI_CODES, ...STUDIO_CODES };

/** The traits of any code (a code of a newer server may be unknown: undefined). */
export function codeTraits(code: string): CodeTraits | undefined {
  return Object.hasOwn(ALL, code) ? ALL[code] : undefined;
}
