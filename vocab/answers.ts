/**
 * Required answers of an interrupt act (`acts.core.irq`): its params may carry a JSON-schema-like
 * `schema` whose `required` lists the answer keys a person must fill in. An answer is missing when
 * it is absent, null, a string of only white space, or an empty list where the field is a list
 * (`type: array`, answer-fields.ts). Shared by the engine (which refuses such an answer) and the
 * studio's inbox form (which marks the fields and will not submit them empty). The types of the
 * fields and the check of their values: answer-fields.ts, answer-problems.ts.
 */
import { propertiesOf } from './answer-fields.ts';

/** The keys `params.schema.required` names (strings only; anything else there is ignored). */
export function requiredAnswers(params: unknown): string[] {
  if (typeof params !== 'object' || params === null) return [];
  const schema = (params as { schema?: unknown }).schema;
  if (typeof schema !== 'object' || schema === null) return [];
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) ? [...new Set(required.filter((k): k is string => typeof k === 'string' && k !== ''))] : [];
}

/** An answer that does not count as given: absent, null, or blank text. */
export function isBlankAnswer(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Whether the field `key` of `params` is declared a list (`type: array`): then an empty list is blank too. */
function isListField(params: unknown, key: string): boolean {
  const spec = propertiesOf(params)[key];
  return typeof spec === 'object' && spec !== null && (spec as { type?: unknown }).type === 'array';
}

/** The required keys of `params` whose answer in `options` is blank, in the order they are listed. */
export function blankRequiredAnswers(params: unknown, options: Record<string, unknown>): string[] {
  return requiredAnswers(params).filter((key) => {
    const value = Object.hasOwn(options, key) ? options[key] : undefined;
    return isBlankAnswer(value) || (Array.isArray(value) && value.length === 0 && isListField(params, key));
  });
}
