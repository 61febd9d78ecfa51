/**
 * The rules of secret names and values (server/secrets, the API, the CLI and the studio). A name
 * is what `{{ secrets.NAME }}` writes: an upper-case letter, then upper-case letters, digits or `_`.
 */

/** A secret's name: `^[A-Z][A-Z0-9_]{0,63}$`. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The largest value a secret may hold, in UTF-8 bytes. */
export const MAX_SECRET_BYTES = 8192;

/** What every stored or shown place writes instead of a secret's value. */
export const REDACTED = '***';
