/**
 * Input problems as sentences a person can act on, naming the field: zod's own texts ("name: Too
 * small: expected string to have >=1 characters") become "The name must not be empty."; a text a
 * schema set itself (say "the idempotency key is empty") is kept, as a sentence. Used by the API's
 * one error formatter (errors.ts) for every `input.invalid` and `input.too_large`.
 */
import { en } from 'zod/locales';
import type { $ZodRawIssue } from 'zod/v4/core';

/** What errors.ts hands over of a zod issue (its `path` already joined). */
export interface IssueFacts {
  code?: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  divisor?: number | bigint;
}

const zodText = en().localeError as unknown as (issue: $ZodRawIssue) => string | { message: string } | undefined;

/** Field names that are abbreviations, in words. */
const WORDS: Readonly<Record<string, string>> = { mid: 'model id', pid: 'run id', tid: 'task id', id: 'id', ver: 'version', uid: 'user id' };

const words = (key: string): string => WORDS[key] ?? key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();

/** "The name", "The note in inputs.list.1", "Item 2 of the roles", "The input". */
export function fieldLabel(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return 'The input';
  const last = path[path.length - 1];
  const where = path.length > 1 ? ` in ${path.slice(0, -1).map(String).join('.')}` : '';
  if (typeof last === 'number') return path.length === 1 ? `Item ${last + 1}` : `Item ${last + 1} of the ${words(String(path[path.length - 2]))}${path.length > 2 ? ` in ${path.slice(0, -2).map(String).join('.')}` : ''}`;
  return `The ${words(String(last))}${where}`;
}

/** Whether zod wrote the message (then it is replaced), not the schema's author. */
function fromZod(issue: IssueFacts): boolean {
  if (issue.code === 'invalid_type') return /^Invalid input: expected \S+, received \S+$/.test(issue.message);
  const text = zodText(issue as unknown as $ZodRawIssue);
  return issue.message === (typeof text === 'string' ? text : text?.message);
}

const KINDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  date: 'a date',
  null: 'empty (null)',
};
const kind = (type: string): string => KINDS[type] ?? `a ${type}`;
const plural = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

function tooSmall(field: string, i: IssueFacts): string {
  const n = i.minimum ?? 0;
  if (i.origin === 'string') return Number(n) <= 1 ? `${field} must not be empty.` : `${field} must be at least ${plural(n, 'character', 'characters')} long.`;
  if (i.origin === 'array' || i.origin === 'set') return Number(n) <= 1 ? `${field} must have at least one item.` : `${field} must have at least ${plural(n, 'item', 'items')}.`;
  return `${field} must be ${i.inclusive === false ? 'more than' : 'at least'} ${n}.`;
}

function tooBig(field: string, i: IssueFacts): string {
  const n = i.maximum ?? 0;
  if (i.origin === 'string') return `${field} must be at most ${plural(n, 'character', 'characters')} long.`;
  if (i.origin === 'array' || i.origin === 'set') return `${field} may have at most ${plural(n, 'item', 'items')}.`;
  return `${field} must be ${i.inclusive === false ? 'less than' : 'at most'} ${n}.`;
}

function wrongType(field: string, i: IssueFacts): string {
  const received = /received (\S+)$/.exec(i.message)?.[1];
  if (received === 'undefined') return `${field} is missing.`;
  const expected = i.expected ?? 'value';
  // a fraction where a whole number belongs is still a number: say only what it must be
  const also = received && !(expected === 'int' && received === 'number') ? `, not ${kind(received)}` : '';
  return `${field} must be ${kind(expected)}${also}.`;
}

function zodSentence(field: string, i: IssueFacts): string {
  switch (i.code) {
    case 'too_small':
      return tooSmall(field, i);
    case 'too_big':
      return tooBig(field, i);
    case 'invalid_type':
      return wrongType(field, i);
    case 'invalid_value':
      return `${field} must be one of ${(i.values ?? []).map((v) => `“${String(v)}”`).join(', ')}.`;
    case 'invalid_format':
      return i.format === 'regex' ? `${field} is not in the expected form.` : `${field} is not a valid ${i.format ?? 'value'}.`;
    case 'unrecognized_keys':
      return `${field} has ${(i.keys ?? []).length === 1 ? 'a field' : 'fields'} it does not know: ${(i.keys ?? []).map((k) => `“${k}”`).join(', ')}.`;
    case 'invalid_union':
      return `${field} is not in any of the accepted forms.`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${i.divisor}.`;
    default:
      return `${field} is not valid.`;
  }
}

/** A message as a sentence: capital first letter, a full stop. */
function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The sentence of one issue. */
export function issueSentence(issue: IssueFacts): string {
  return fromZod(issue) ? zodSentence(fieldLabel(issue.path), issue) : asSentence(issue.message);
}
