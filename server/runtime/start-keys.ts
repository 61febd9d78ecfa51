/**
 * Idempotent process starts. A start may carry an idempotency key; the key and a digest of the
 * start (model id and options as given) are columns of the process row, so they become durable in
 * the same store transaction as the process itself — a start cut off after that write (a crash,
 * a lost reply) and sent again finds its first process instead of starting a second one. A repeat
 * with the same model and options answers that process (`repeated: true`); with another model or
 * other options it is `process.key_conflict`. Keys live as long as their process row.
 *
 * State per key on this engine: free → starting (one start in flight; further starts with the key
 * wait for it) → free again, the row (if the start succeeded) now holding the key. Several engine
 * instances on one database do not coordinate: two starts with one key sent to two servers at the
 * same moment may both start.
 */
import crypto from 'node:crypto';
import { ActError } from '../engine/errors.ts';
import type { Vars } from '../engine/model/types.ts';
import type { StartKey } from '../engine/process.ts';
import type { ProcRow, Store } from '../engine/store/types.ts';

/** Longest idempotency key (characters). */
export const MAX_START_KEY_CHARS = 200;

/** What a keyed start answers: the pid of the process and whether an earlier start made it. */
export interface KeyedStart {
  pid: string;
  repeated: boolean;
}

/** Checks an idempotency key: a non-empty string of at most 200 characters without control characters. */
export function checkStartKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) throw new ActError('inputs.invalid', 'the idempotency key must be a non-empty string');
  if (key.length > MAX_START_KEY_CHARS) throw new ActError('inputs.invalid', `the idempotency key must be at most ${MAX_START_KEY_CHARS} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new ActError('inputs.invalid', 'the idempotency key must not contain control characters');
  return key;
}

/** JSON with object keys sorted, so equal options give equal text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The digest a repeat must match: sha256 of the model id and the options as given. */
export function startDigest(mid: string, options: Vars): string {
  return crypto.createHash('sha256').update(canonical({ mid, options })).digest('hex');
}

async function processWithKey(store: Store, key: string): Promise<ProcRow | undefined> {
  return store.queries.processWithStartKey(key);
}

function repeatOf(row: ProcRow, mid: string, digest: string): KeyedStart {
  if (row.start_digest === digest) return { pid: row.id, repeated: true };
  const what = row.mid === mid ? 'other start options' : `model '${row.mid}'`;
  throw new ActError(
    'process.key_conflict',
    `the idempotency key was already used to start process '${row.id}' with ${what}; send the same start again to get that process, or use a new key for a different start`,
    { pid: row.id, mid: row.mid },
  );
}

/** Starts a process that writes `key` with its row; resolves to its pid. */
export type StartWithKey = (key: StartKey) => Promise<string>;

/** Runs starts with idempotency keys (see the header). */
export class StartKeys {
  private readonly starting = new Map<string, Promise<KeyedStart>>();

  constructor(private readonly store: Store) {}

  /** Answers the process an earlier start with `rawKey` made, or runs `start` (one start per key at a time). */
  async run(mid: string, options: Vars, rawKey: unknown, start: StartWithKey): Promise<KeyedStart> {
    const key = checkStartKey(rawKey);
    for (let pending = this.starting.get(key); pending; pending = this.starting.get(key)) await pending.catch(() => undefined);
    const attempt = this.attempt(mid, options, key, start);
    this.starting.set(key, attempt);
    try {
      return await attempt;
    } finally {
      if (this.starting.get(key) === attempt) this.starting.delete(key);
    }
  }

  private async attempt(mid: string, options: Vars, key: string, start: StartWithKey): Promise<KeyedStart> {
    const digest = startDigest(mid, options);
    const earlier = await processWithKey(this.store, key);
    if (earlier) return repeatOf(earlier, mid, digest);
    return { pid: await start({ key, digest }), repeated: false };
  }
}
