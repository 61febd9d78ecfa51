/**
 * `{{ expr }}` templates in model data (spec 1.8, section 0.11).
 *
 * A template is `{{`, then anything except a line break, then the first `}}` after it (non-greedy),
 * so several templates on one line are evaluated each on its own.
 */
import { ActError } from '../errors.ts';
import type { Vars } from '../model/types.ts';
import { EvaluationDeferred } from '../sandbox/types.ts';

/** Evaluates one JS source for the current task; throws on error. */
export type Evaluate = (source: string) => unknown;

const TEMPLATE = /\{\{(.*?)\}\}/g;

/** The inner expressions (trimmed) of every template in `s`, in order. */
export function findTemplates(s: string): string[] {
  return Array.from(s.matchAll(TEMPLATE), (m) => m[1].trim());
}

export function hasTemplate(s: string): boolean {
  return /\{\{.*?\}\}/.test(s);
}

/** The inner expression when `s` (ignoring surrounding whitespace) is exactly one template, else null. */
export function isWholeTemplate(s: string): string | null {
  const trimmed = s.trim();
  const first = /\{\{(.*?)\}\}/.exec(trimmed);
  if (!first || first.index !== 0 || first[0].length !== trimmed.length) return null;
  return first[1].trim();
}

function isPlainObject(value: unknown): value is Vars {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function orNull(value: unknown): unknown {
  return value === undefined ? null : value;
}

/**
 * `inputs`/`outputs` maps: a string that is entirely one template becomes the expression's value
 * (an evaluation error gives null); nested plain objects are processed, arrays and other values kept.
 */
export function renderValueMap(map: Vars, evaluate: Evaluate): Vars {
  const out: Vars = {};
  for (const [key, value] of Object.entries(map)) {
    if (typeof value === 'string') {
      const expr = isWholeTemplate(value);
      if (expr === null) out[key] = value;
      else {
        try {
          out[key] = orNull(evaluate(expr));
        } catch (err) {
          // the evaluation goes on off the engine's thread (expr/trials.ts): not an error of the template
          if (err instanceof EvaluationDeferred) throw err;
          out[key] = null;
        }
      }
    } else if (isPlainObject(value)) {
      out[key] = renderValueMap(value, evaluate);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** How a template's value reads inside a longer string. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value ?? null) ?? 'null';
}

function renderString(s: string, evaluate: Evaluate): unknown {
  if (!hasTemplate(s)) return s;
  const whole = isWholeTemplate(s);
  if (whole !== null) return orNull(evaluate(whole));
  return s.replace(TEMPLATE, (_match, expr: string) => asText(evaluate(expr.trim())));
}

/**
 * Act params (any JSON): every string, at any depth, has its templates evaluated. A string that is
 * one whole template becomes the raw value; otherwise each template is replaced by its text.
 * Evaluation errors propagate.
 */
export function renderParams(value: unknown, evaluate: Evaluate): unknown {
  if (typeof value === 'string') return renderString(value, evaluate);
  if (Array.isArray(value)) return value.map((item) => renderParams(item, evaluate));
  if (isPlainObject(value)) {
    const out: Vars = {};
    for (const [key, item] of Object.entries(value)) out[key] = renderParams(item, evaluate);
    return out;
  }
  return value;
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `if` of a step, branch or act: raw JS source that must evaluate to a boolean. */
export function evaluateCondition(source: string, evaluate: Evaluate): boolean {
  const value = evaluate(source);
  if (typeof value === 'boolean') return value;
  throw new ActError('script.error', `if expression "${source}" must return a boolean, got ${typeName(value)}`);
}
