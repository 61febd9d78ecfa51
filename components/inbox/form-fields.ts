/**
 * The fields of a task's form, from the act's declared `outputs` (their default values) and,
 * where the act's params carry one, a JSON-schema-like `schema.properties` (type, title,
 * description, enum) and `schema.required` (vocab/answers.ts). Pure: turns declarations into field
 * descriptions and form values into options.
 */
import { blankRequiredAnswers, requiredAnswers } from '../../vocab/answers.ts';

export type FieldKind = 'text' | 'number' | 'boolean' | 'select' | 'json';

export interface FormField {
  key: string;
  label: string;
  kind: FieldKind;
  description?: string;
  choices?: string[];
  initial: unknown;
  /** The act requires a non-blank answer (the server refuses a blank one). */
  required: boolean;
}

interface PropertySchema {
  type?: unknown;
  title?: unknown;
  description?: unknown;
  enum?: unknown;
}

function propertiesOf(params: unknown): Record<string, PropertySchema> {
  if (typeof params !== 'object' || params === null) return {};
  const schema = (params as { schema?: unknown }).schema;
  if (typeof schema !== 'object' || schema === null) return {};
  const props = (schema as { properties?: unknown }).properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, PropertySchema>) : {};
}

function kindOf(schemaType: unknown, initial: unknown, choices: string[] | undefined): FieldKind {
  if (choices) return 'select';
  const type = typeof schemaType === 'string' ? schemaType : initial === null || initial === undefined ? 'string' : typeof initial;
  if (type === 'boolean') return 'boolean';
  if (type === 'number' || type === 'integer' || type === 'bigint') return 'number';
  if (type === 'string') return 'text';
  return 'json';
}

export function formFields(outputs: Record<string, unknown>, params: unknown): FormField[] {
  const props = propertiesOf(params);
  const required = new Set(requiredAnswers(params));
  return Object.entries(outputs).map(([key, initial]) => {
    const prop = props[key] ?? {};
    const choices = Array.isArray(prop.enum) ? prop.enum.map(String) : undefined;
    return {
      key,
      label: typeof prop.title === 'string' ? prop.title : key.replaceAll('_', ' '),
      kind: kindOf(prop.type, initial, choices),
      description: typeof prop.description === 'string' ? prop.description : undefined,
      choices,
      initial: initial ?? (choices ? choices[0] : null),
      required: required.has(key),
    };
  });
}

/** The text an input shows for a value. */
export function fieldText(field: FormField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'json') return JSON.stringify(value);
  return String(value);
}

/** A field's typed value from its input; throws a readable message when it does not parse. */
export function parseField(field: FormField, raw: string | boolean): unknown {
  if (field.kind === 'boolean') return raw === true;
  const text = String(raw);
  if (field.kind === 'number') {
    if (text.trim() === '') return null;
    const n = Number(text);
    if (Number.isNaN(n)) throw new Error(`${field.label}: enter a number`);
    return n;
  }
  if (field.kind === 'json') {
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`${field.label}: enter valid JSON`);
    }
  }
  return text;
}

/** The fields whose answer in `options` is blank though the act requires one (as the server judges it). */
export function blankRequired(fields: FormField[], params: unknown, options: Record<string, unknown>): FormField[] {
  const blank = new Set(blankRequiredAnswers(params, options));
  return fields.filter((f) => blank.has(f.key));
}

/** The sentence that asks for the blank required fields. */
export function requiredSentence(blank: FormField[]): string {
  const names = blank.map((f) => f.label);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Fill in ${list}: ${names.length === 1 ? 'it is' : 'they are'} required (not empty, not just spaces).`;
}

/** The form's title and description from the act's params (falling back to the step and key). */
export function formText(params: unknown, fallback: string): { title: string; description: string | null } {
  const p = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const title = typeof p.title === 'string' && p.title ? p.title : fallback;
  const description = [p.description, p.desc, p.text].find((v): v is string => typeof v === 'string' && v !== '') ?? null;
  return { title, description };
}
