/**
 * Values given on the command line: a JSON object (`--inputs`, `--options`) merged with
 * repeatable `key=value` pairs (`--input`, `--option`), and page numbers. A pair's value is JSON
 * when it parses as JSON (`amount=10` → 10, `ok=true`, `tags=["a"]`, `zip="01234"` → "01234"),
 * otherwise the text as it is (`name=alice`).
 */
import { usage } from './failure.ts';

function parseObject(text: string, flag: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usage(`${flag} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usage(`${flag} must be a JSON object, e.g. ${flag} '{"amount": 10}'`);
  }
  return value as Record<string, unknown>;
}

function pairValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `--inputs <json>` then every `--input key=value` on top (later pairs win). */
export function mergeValues(json: string | undefined, pairs: string[], names: { json: string; pair: string }): Record<string, unknown> {
  const result = json === undefined ? {} : parseObject(json, names.json);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (!key) throw usage(`${names.pair} expects key=value, got '${pair}'`);
    result[key] = pairValue(pair.slice(eq + 1));
  }
  return result;
}

/** An integer flag within [min, max]. */
export function integer(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < min || n > max) throw usage(`${flag} must be a whole number from ${min} to ${max}, got '${value}'`);
  return n;
}
