/** An HTTP answer's body as an act's data: JSON parsed, text as text, anything else base64. */

const TEXT = /^(text\/|application\/(xml|javascript|x-www-form-urlencoded|x-ndjson)|[^;]*\+xml)/i;
const JSON_TYPE = /^(application\/json|[^;]*\+json)/i;

export function decodeBody(bytes: Buffer, contentType: string | undefined): unknown {
  const type = (contentType ?? '').trim();
  if (bytes.length === 0) return '';
  if (JSON_TYPE.test(type)) {
    const text = bytes.toString('utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // a body that says it is JSON but is not: kept as the text it is
      return text;
    }
  }
  if (TEXT.test(type)) return bytes.toString('utf8');
  return bytes.toString('base64');
}
