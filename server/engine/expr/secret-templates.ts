/**
 * `{{ secrets.NAME }}` in act params: a template whose whole expression is `secrets.NAME` reads
 * the project's secret NAME (engine/secrets.ts) instead of going to the sandbox, where `secrets`
 * is no variable at all — a script cannot read, copy or `$set` a secret. Rendering gives two
 * versions of the params: `shown` with `***` in place of each value (what the task row, its
 * messages, the API and the run view get) and `clear` with the values (only for the act's run,
 * in memory), plus the values used (to redact them from what the act writes and its errors).
 * An unknown name fails the act with `secret.unknown` (its ecode too).
 */
import { ActError, familyFailure } from '../errors.ts';
import type { SecretReader } from '../secrets.ts';
import { REDACTED } from '../../../vocab/secrets.ts';
import { findTemplates, type Evaluate } from './templates.ts';

const REF = /^secrets\s*\.\s*([A-Za-z_$][\w$]*)$/;
const MARK = /\u0000acts-secret-(\d+)\u0000/g;

/** The secret's name when `expr` (a template's inner expression) is `secrets.NAME`, else null. */
export function secretRef(expr: string): string | null {
  return REF.exec(expr.trim())?.[1] ?? null;
}

/** The names of the secrets `value`'s templates read, at any depth (deploy checks, restored acts). */
export function secretNames(value: unknown): string[] {
  if (typeof value === 'string') return findTemplates(value).flatMap((expr) => secretRef(expr) ?? []);
  if (Array.isArray(value)) return value.flatMap(secretNames);
  if (value && typeof value === 'object') return Object.values(value).flatMap(secretNames);
  return [];
}

export interface RenderedParams {
  shown: unknown;
  /** The params with the secrets' values; absent when no secret was read. */
  clear?: unknown;
  /** The values read, for redaction. */
  values: string[];
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}

/**
 * Runs `render` (templates.ts renderParams over the params) with an evaluator that answers
 * `secrets.NAME` from `secrets` by a mark, then replaces the marks: `***` in `shown`, the value in `clear`.
 */
export function renderWithSecrets(render: (evaluate: Evaluate) => unknown, evaluate: Evaluate, secrets: SecretReader, where: string): RenderedParams {
  const values: string[] = [];
  const marked = render((source) => {
    const name = secretRef(source);
    if (name === null) return evaluate(source);
    const value = secrets.get(name);
    if (value === undefined) {
      // the act's ecode too, so a catch rule can match it
      throw familyFailure(new ActError('secret.unknown', `${where} reads the secret '${name}', which is not stored: an admin adds it (the studio's Secrets page, or acts secrets set ${name})`), 'secret.');
    }
    values.push(value);
    return `\u0000acts-secret-${values.length - 1}\u0000`;
  });
  if (values.length === 0) return { shown: marked, values };
  return {
    shown: mapStrings(marked, (s) => s.replace(MARK, REDACTED)),
    clear: mapStrings(marked, (s) => s.replace(MARK, (_m, i: string) => values[Number(i)])),
    values: [...new Set(values)],
  };
}
