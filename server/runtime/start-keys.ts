/**
 * Idempotent process starts. A start may carry an idempotency key; the key and a digest of the
 * start (model id and options as given) are columns of the process row, so they become durable in
 * the same store transaction as the process itself — a start cut off after that write (a crash,
 * a lost reply) and sent again finds its first process instead of starting a second one. A repeat
 * with the same model and options answers that process (`repeated: true`); with another model or
 * other options it is `process.key_conflict`. Keys live as long as their process row.
 *
 * Across the engine instances sharing a store, a key is first *claimed*: a row in `start_claims`
 * (key, the pid the start will write, its digest, the claiming instance, when), inserted with
 * `INSERT … ON CONFLICT DO NOTHING` (StoreQueries.claimStartKey) — of concurrent claims on any
 * number of instances exactly one inserts. Why a claim table and not a unique index on
 * `procs.start_key`: the process row is written by the store writer in ONE transaction with other
 * jobs' writes, where a unique violation would roll back unrelated work (and abort the PostgreSQL
 * transaction); the claim is a statement of its own, before the start, whose conflict is no error.
 * It also names who is starting, so a start can tell a claimer still at work (wait) from one that
 * died (take the claim over) — a unique index could only say "taken".
 *
 * State of a key (store-wide; on one engine at most one start per key runs at a time, the others
 * wait for it in `starting`):
 *
 *   free     — no claim, no process row with the key: the next start claims it;
 *   claimed  — a claim names instance I and pid P: I is starting P. Other starts look again
 *              (polling, up to CLAIM_WAIT_MS, then `engine.busy`) until the process row appears
 *              (→ its repeat or key conflict), the claim is gone (→ claim again), or I is gone
 *              (InstanceLease.mayBeRunning): its instance lock is free — its process died, however
 *              long its lease still runs — or its row was removed (a dead instance's, at another's
 *              registration; on SQLite every earlier one), or I is this engine's own id (a claim
 *              from an earlier life: this engine is not starting it) → the claim is deleted (only
 *              if still the one read) and claimed again, with the same pid P unless this start
 *              names its own pid. While I's lock is held, a lapsed lease is no reason: I may only
 *              hang, and would write P after all;
 *   started  — the process row holds the key (written, durable); I deletes the claim. A start
 *              that failed deletes its claim too (→ free). A claim that outlives its start (the
 *              claimer died after writing) is harmless: the process row answers first.
 *
 * Keeping P on a takeover is a second guard: should a claimer taken over write after all (a row
 * swept while its process hung for LAPSED_KEPT leases), it writes the same process, and the
 * procs primary key keeps one row. SQLite (one engine per file) and the memory store run the same
 * code: there every foreign claim is a dead instance's (its row removed), so nothing ever waits.
 */
import crypto from 'node:crypto';
import { ActError, errorMessage } from '../engine/errors.ts';
import type { Vars } from '../engine/model/types.ts';
import type { StartKey } from '../engine/process.ts';
import type { ProcRow, StartClaimRow, Store } from '../store/contract/types.ts';
import type { Runtime } from './runtime-types.ts';
import { checkPid } from './start.ts';
import { MAX_START_KEY_CHARS } from '../../vocab/input-limits.ts';
import { PID_LENGTH } from '../engine/model/ids.ts';

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

function repeatOf(row: ProcRow, mid: string, digest: string): KeyedStart {
  if (row.start_digest === digest) return { pid: row.id, repeated: true };
  const what = row.mid === mid ? 'other start options' : `model '${row.mid}'`;
  throw new ActError(
    'process.key_conflict',
    `the idempotency key was already used to start process '${row.id}' with ${what}; send the same start again to get that process, or use a new key for a different start`,
    { pid: row.id, mid: row.mid },
  );
}

/** Longest a start waits for another instance's start with its key (ms, real time). */
const CLAIM_WAIT_MS = 30_000;
/** Pauses between looks at another instance's claim: doubling from the first to the last. */
const LOOK_FIRST_MS = 5;
const LOOK_MAX_MS = 100;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts the process `pid` that writes `key` with its row; resolves to its pid. */
export type StartWithKey = (key: StartKey, pid: string) => Promise<string>;

/** Whether engine instance `instance`, not this one, may still be at work (InstanceLease.mayBeRunning). */
export type MayBeRunning = (instance: string) => Promise<boolean>;

/** Runs starts with idempotency keys (see the header). */
export class StartKeys {
  private readonly starting = new Map<string, Promise<KeyedStart>>();

  constructor(
    private readonly rt: Runtime,
    private readonly mayBeRunning: MayBeRunning,
  ) {}

  private get store(): Store {
    return this.rt.store;
  }

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
    const named = options.pid !== undefined ? checkPid(options.pid) : undefined;
    let pid = named ?? this.rt.newId(PID_LENGTH);
    const waitUntil = Date.now() + CLAIM_WAIT_MS;
    for (let looks = 0; ; ) {
      const earlier = await this.store.queries.processWithStartKey(key);
      if (earlier) return repeatOf(earlier, mid, digest);
      const claim: StartClaimRow = { id: key, pid, digest, instance: this.rt.config.instanceId, claimed: this.rt.clock.now() };
      if (await this.store.queries.claimStartKey(claim)) return this.startClaimed(claim, mid, start);
      const held = await this.store.startClaims.find(key);
      if (!held) continue; // its start just ended: look again
      if (!(await this.mayBeRunning(held.instance))) {
        // the claimer is gone (or is this engine in an earlier life): take the claim over
        if (await this.store.queries.deleteStartClaim(held)) {
          this.rt.log.warn(`an idempotency key was claimed by engine instance ${held.instance}, which is gone; its start (process '${held.pid}') is taken over`);
        }
        pid = named ?? held.pid;
        continue;
      }
      if (Date.now() >= waitUntil) {
        throw new ActError('engine.busy', `a start with this idempotency key is still in flight on engine instance ${held.instance}; send the start again shortly`);
      }
      await pause(Math.min(LOOK_MAX_MS, LOOK_FIRST_MS * 2 ** looks++));
    }
  }

  /** Runs the start of a claimed key; the claim is deleted when it ended, whatever the outcome. */
  private async startClaimed(claim: StartClaimRow, mid: string, start: StartWithKey): Promise<KeyedStart> {
    const { id: key, digest } = claim;
    this.rt.fault('start:claimed');
    try {
      // a start that wrote its process and deleted its claim between our look and our claim
      const earlier = await this.store.queries.processWithStartKey(key);
      if (earlier) return repeatOf(earlier, mid, digest);
      try {
        return { pid: await start({ key, digest }, claim.pid), repeated: false };
      } catch (err) {
        // a claimer taken over that wrote after all (the same pid: this start could not) is the answer
        const written = await this.store.queries.processWithStartKey(key).catch(() => undefined);
        if (written) return repeatOf(written, mid, digest);
        throw err;
      }
    } finally {
      await this.store.queries.deleteStartClaim(claim).catch((err: unknown) => {
        this.rt.log.warn(`the claim of an idempotency key could not be deleted (a later start takes it over once this instance is gone): ${errorMessage(err)}`);
      });
    }
  }
}
