/**
 * Node ids (spec 1.1): the workflow gets a 21-character id, steps, branches and acts 8 characters,
 * all drawn from `0-9a-zA-Z` with a cryptographic random source.
 */
import { createHash, randomFillSync } from 'node:crypto';

export const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const WORKFLOW_ID_LENGTH = 21;
export const NODE_ID_LENGTH = 8;

/** Produces a fresh id of `length` characters; injectable so tests get deterministic ids. */
export type IdSource = (length: number) => string;

/** Random bytes drawn 4 KiB at a time (a `randomInt` call per character cost more than the rest of an id). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** Bytes at or above this are skipped: the rest map onto the alphabet evenly (248 = 4 × 62). */
const EVEN_BELOW = 256 - (256 % ID_ALPHABET.length);

/** A random id of `length` characters from `0-9a-zA-Z`, each equally likely. */
export function newId(length: number): string {
  let id = '';
  while (id.length < length) {
    if (poolAt === pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    const byte = pool[poolAt++];
    if (byte < EVEN_BELOW) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  }
  return id;
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
