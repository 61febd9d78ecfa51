/**
 * The fields of a task's form, from the act's declared `outputs` (their default values) and, where
 * the act's params carry one, a typed `schema.properties` (vocab/answer-fields.ts) and
 * `schema.required` (vocab/answers.ts). Pure: turns declarations into field descriptions and the
 * inputs into the answer's values. A value an input cannot turn into its type is sent as typed
 * (text in a number field), so the one shared check (vocab/answer-problems.ts) says what is wrong
 * with it, in the words the server would use; a chosen file is checked as the reference its upload
 * will answer (`PENDING_FILE`) until it is uploaded.
 */
import { fieldSpec, propertiesOf, type FieldKind as SpecKind, type FieldSpec, type FileRef, type ItemSpec } from '../../vocab/answer-fields.ts';
import { blankRequiredAnswers, requiredAnswers } from '../../vocab/answers.ts';

/** How a field is drawn: a typed kind, or JSON for an untyped field whose default is not a scalar. */
export type FieldKind = Exclude<SpecKind, 'untyped'> | 'json';

export interface FormField extends Omit<FieldSpec, 'kind' | 'title'> {
  label: string;
  kind: FieldKind;
  initial: unknown;
  /** The act requires a non-blank answer (the server refuses a blank one). */
  required: boolean;
}

/** What an input holds: text, a checkbox, a list's rows, a chosen file. */
export type FieldInput = string | boolean | string[] | File | null;

/** The id a chosen file's reference has until its upload answers the real one. */
export const PENDING_FILE = 'pending-upload';

/** An untyped field's kind, from its default value (as before fields had types). */
function kindOfValue(initial: unknown): FieldKind {
  if (typeof initial === 'boolean') return 'boolean';
  if (typeof initial === 'number' || typeof initial === 'bigint') return 'number';
  return initial === null || initial === undefined || typeof initial === 'string' ? 'text' : 'json';
}

export function formFields(outputs: Record<string, unknown>, params: unknown): FormField[] {
  const props = propertiesOf(params);
  const required = new Set(requiredAnswers(params));
  return Object.entries(outputs).map(([key, initial]) => {
    const { title, kind, ...spec } = fieldSpec(key, props[key]);
    return { ...spec, label: title, kind: kind === 'untyped' ? kindOfValue(initial) : kind, initial: initial ?? (spec.choices ? spec.choices[0] : null), required: required.has(key) };
  });
}

/** The text an input shows for a value. */
export function fieldText(field: Pick<FormField, 'kind'>, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'json') return JSON.stringify(value);
  return String(value);
}

/** The initial input of a field. */
export function initialInput(field: FormField): FieldInput {
  switch (field.kind) {
    case 'boolean':
      return field.initial === true;
    case 'file':
      return null;
    case 'list': {
      const rows = Array.isArray(field.initial) ? field.initial.map((v) => fieldText(field, v)) : [];
      return rows.length > 0 ? rows : [''];
    }
    default:
      return fieldText(field, field.initial);
  }
}

/** One text as a value of `kind`: blank is null, a number that reads as one a number, a choice its declared value. */
function scalarValue(kind: FieldKind | ItemSpec['kind'], text: string, choices?: FormField['choices']): unknown {
  if (kind === 'text' || kind === 'multiline') return text;
  if (text.trim() === '') return null;
  if (kind === 'choice') return choices?.find((c) => String(c) === text) ?? text;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (kind === 'number' || kind === 'integer') return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

/** A chosen file as the reference its upload will answer (the server's media type when the browser knows none). */
export function pendingRef(file: File): FileRef {
  return { file: PENDING_FILE, name: file.name, size: file.size, type: file.type || 'application/octet-stream' };
}

/** A field's value from its input; throws a readable message only for JSON that does not parse (an untyped field). */
export function parseField(field: FormField, raw: FieldInput): unknown {
  if (field.kind === 'boolean') return raw === true;
  if (field.kind === 'file') return raw instanceof File ? pendingRef(raw) : null;
  if (field.kind === 'list') return (Array.isArray(raw) ? raw : []).filter((row) => row.trim() !== '').map((row) => scalarValue(field.item!.kind, row, field.item!.choices));
  const text = typeof raw === 'string' ? raw : '';
  if (field.kind !== 'json') return scalarValue(field.kind, text, field.choices);
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${field.label}: enter valid JSON`);
  }
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
