/**
 * Ids. Node ids (spec 1.1): the workflow gets a 21-character id, steps, branches and acts 8
 * characters, all drawn from `0-9a-zA-Z` with a cryptographic random source. The rows the engine
 * writes in numbers (generated pids, messages, deliveries, outbox records) get sortable ids: the
 * time first, so that they are appended to their tables' keys (`sortableId`).
 */
import { createHash, randomFillSync } from 'node:crypto';

export const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const WORKFLOW_ID_LENGTH = 21;
export const NODE_ID_LENGTH = 8;
/** Generated pids: a sortable id (time first, then 12 random characters). */
export const PID_LENGTH = 21;
/** Ids of the rows the engine makes in numbers (messages, deliveries, outbox records): sortable, 16 random characters after the time. */
export const ROW_ID_LENGTH = 25;

/** Produces a fresh id of `length` characters; injectable so tests get deterministic ids. */
export type IdSource = (length: number) => string;

/** Random bytes drawn 4 KiB at a time (a `randomInt` call per character cost more than the rest of an id). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** Bytes at or above this are skipped: the rest map onto the alphabet evenly (248 = 4 × 62). */
const EVEN_BELOW = 256 - (256 % ID_ALPHABET.length);

/** The alphabet's character codes, and a buffer an id is assembled in (one string made per id, not one per character). */
const ALPHABET_CODES = Buffer.from(ID_ALPHABET, 'latin1');
const assembly = Buffer.alloc(64);

/** A random id of `length` characters from `0-9a-zA-Z`, each equally likely. */
export function newId(length: number): string {
  const out = length <= assembly.length ? assembly : Buffer.alloc(length);
  let n = 0;
  while (n < length) {
    if (poolAt === pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    const byte = pool[poolAt++];
    if (byte < EVEN_BELOW) out[n++] = ALPHABET_CODES[byte % ID_ALPHABET.length];
  }
  return out.toString('latin1', 0, length);
}

/**
 * Ids drawn from a hash of `seed` and a counter: parsing the same source twice generates the same
 * ids for the nodes it left without one, so a stored process finds its nodes again after a reload.
 */
export function seededIds(seed: string): IdSource {
  let counter = 0;
  return (length) => {
    const digest = createHash('sha256').update(`${seed}\u0000${counter++}`).digest();
    let id = '';
    for (let i = 0; i < length; i++) id += ID_ALPHABET[digest[i % digest.length] % ID_ALPHABET.length];
    return id;
  };
}

/** Characters of the time prefix of a sortable id: epoch milliseconds in base 36 (until year 5188). */
const TIME_CHARS = 9;

/** The time prefix of ids that sort in creation order: `ms` in `TIME_CHARS` base-36 characters. */
export function timePrefix(ms: number): string {
  return ms.toString(36).padStart(TIME_CHARS, '0');
}

let prefixAt = -1;
let prefix = '';

/**
 * An id of `length` characters that starts with the time it was made (`TIME_CHARS` characters of
 * base-36 epoch milliseconds, which sort the same bytewise and under the databases' collations),
 * the rest random from `0-9a-zA-Z`: rows inserted together land together at the end of the
 * primary key's B-tree instead of on a random page each. Below `TIME_CHARS + 12` characters the
 * random part would be too short to stay unique: such ids are random throughout.
 */
export function sortableId(length: number, now = Date.now()): string {
  if (length < TIME_CHARS + 12) return newId(length);
  if (now !== prefixAt) {
    prefixAt = now;
    prefix = timePrefix(now);
  }
  return prefix + newId(length - TIME_CHARS);
}
