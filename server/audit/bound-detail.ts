/**
 * What an audit entry keeps of a request's detail: never a secret (every key whose name contains
 * password, passwd, secret or token is dropped, at any depth) and never more than a few KiB of
 * JSON (a bigger detail is replaced by its size and the start of its JSON text); an entry that
 * covers a list (a bulk action's runs) may ask for up to 1 MiB.
 */

export const MAX_DETAIL_BYTES = 4096;
/** The bound an entry covering a list (a bulk action's runs) may ask for instead. */
export const MAX_LIST_DETAIL_BYTES = 1024 * 1024;

const SECRET_KEY = /password|passwd|secret|token/i;

/**
 * The JSON text of `detail` without secret keys; undefined when it has none (undefined, a function).
 * A secret key's name is plain letters, never escaped in JSON: text in which no secret word
 * appears has no such key, and is the answer as it is (no replacer called for every value).
 */
function redactedJson(detail: unknown): string | undefined {
  const plain = plainJson(detail);
  if (plain !== undefined && !SECRET_KEY.test(plain)) return plain;
  try {
    return JSON.stringify(detail, (key, value: unknown) => {
      if (key !== '' && SECRET_KEY.test(key)) return undefined;
      return typeof value === 'bigint' ? value.toString() : value;
    });
  } catch (err) {
    return JSON.stringify({ unserializable: (err as Error).message });
  }
}

/** JSON.stringify's text of `detail`; undefined when it has none or cannot be made (a bigint: the replacer's work). */
function plainJson(detail: unknown): string | undefined {
  try {
    return JSON.stringify(detail);
  } catch {
    return undefined;
  }
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The first `max` bytes of `text`, never splitting a character. */
function head(text: string, max: number): string {
  return Buffer.from(text, 'utf8').subarray(0, Math.max(0, max)).toString('utf8').replace(/\uFFFD+$/u, '');
}

/** `detail` redacted and bounded to `maxBytes` of JSON (null when there is nothing to keep). */
export function boundDetail(detail: unknown, maxBytes = MAX_DETAIL_BYTES): unknown {
  const json = redactedJson(detail);
  if (json === undefined) return null;
  const size = bytes(json);
  if (size <= maxBytes) return JSON.parse(json) as unknown;
  // Escaping can make the preview grow when it is embedded: shrink it until the whole fits.
  let budget = maxBytes - 64;
  for (;;) {
    const bounded = { truncated: true, bytes: size, preview: head(json, budget) };
    const over = bytes(JSON.stringify(bounded)) - maxBytes;
    if (over <= 0 || budget <= 0) return bounded;
    budget -= over;
  }
}
