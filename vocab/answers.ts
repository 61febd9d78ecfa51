/**
 * Required answers of an interrupt act (`acts.core.irq`): its params may carry a JSON-schema-like
 * `schema` whose `required` lists the answer keys a person must fill in. An answer is missing when
 * it is absent, null, or a string of only white space. Shared by the engine (which refuses such an
 * answer) and the studio's inbox form (which marks the fields and will not submit them empty).
 */

/** The types an answer field may declare (`schema.properties.<field>.type`); the inbox draws each as its own input. */
export const ANSWER_TYPES = ['string', 'number', 'integer', 'boolean'];

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

/** The required keys of `params` whose answer in `options` is blank, in the order they are listed. */
export function blankRequiredAnswers(params: unknown, options: Record<string, unknown>): string[] {
  return requiredAnswers(params).filter((key) => isBlankAnswer(Object.hasOwn(options, key) ? options[key] : undefined));
}
