/** The step-test panels' text fields: values written as YAML (a flow map such as `{ price: 3 }`) and shown the same way. */
import YAML from 'yaml';

/** A mapping typed as YAML; throws a sentence for anything else. */
export function readVars(text: string, what: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = YAML.parse(text);
  } catch (err) {
    throw new Error(`${what} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} must be a mapping, e.g. { price: 3 }`);
  return value as Record<string, unknown>;
}

/** A value as one line of YAML flow text. */
export const flowText = (value: unknown): string => YAML.stringify(value, { flow: true }).trim();
