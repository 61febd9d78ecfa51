/** JSON-Schema validation of model inputs and outputs (section 0.18, spec 5.12), cached per schema. */
import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ strict: false, allErrors: true });
const cache = new WeakMap<object, ValidateFunction>();

/** Returns every problem as one line, or null when the value is valid. */
export function validateSchema(schema: Record<string, unknown>, value: unknown): string | null {
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    cache.set(schema, validate);
  }
  if (validate(value)) return null;
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
