/** Default params of a new act from its package's JSON Schema (`default` values, nested objects). */

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value the schema's `default`s describe: the schema's own `default`, else an object of its
 * properties that have defaults (recursively); `undefined` when the schema gives none.
 */
export function defaultsFromSchema(schema: unknown): unknown {
  if (!isSchema(schema)) return undefined;
  if ('default' in schema) return structuredClone(schema.default);
  if (!isSchema(schema.properties)) return undefined;
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = defaultsFromSchema(property);
    if (value !== undefined) result[name] = value;
  }
  return Object.keys(result).length ? result : undefined;
}
