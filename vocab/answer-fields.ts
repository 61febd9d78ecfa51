/**
 * The typed fields of an interrupt act's answer form (`acts.core.irq`): its params' `schema.properties`
 * give each answer key (the act's declared `outputs`) a JSON-schema-like type —
 *   `type: string` (one line), `type: string, format: multiline` (a text area),
 *   `type: string, format: date` (a date, ISO `YYYY-MM-DD`), `type: number`, `type: integer`,
 *   `type: boolean`, `enum: [...]` (a select, of any of those types),
 *   `type: array, items: { type: string|number|integer|boolean, format?: date, enum? }` (a list of rows),
 *   `type: file, maxBytes?, accept?: [media types]` (an upload stored with the process; the answer
 *   holds a small reference `{ file, name, size, type }`).
 * Shared by the engine (answer checks, deploy), the server (uploads) and the studio (the inbox form).
 */

/** The types a field may declare (`schema.properties.<field>.type`). */
export const ANSWER_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'file'] as const;
/** The formats of a `type: string` field. */
export const ANSWER_FORMATS = ['date', 'multiline'] as const;
/** The types of a list's rows (`items.type`). */
export const ITEM_TYPES = ['string', 'number', 'integer', 'boolean'] as const;

/** The largest file any field takes (a field's `maxBytes` may only lower it): 5 MiB. */
export const FILE_CAP_BYTES = 5 * 1024 * 1024;

/** How a field is drawn and checked. */
export type FieldKind = 'text' | 'multiline' | 'date' | 'number' | 'integer' | 'boolean' | 'choice' | 'list' | 'file' | 'untyped';

/** A list's row: a field without a title of its own (lists of lists and of files are not offered). */
export interface ItemSpec {
  kind: Exclude<FieldKind, 'list' | 'file' | 'untyped' | 'multiline'>;
  choices?: ReadonlyArray<string | number | boolean>;
}

export interface FieldSpec {
  key: string;
  /** The field's `title`, else its key with `_` as spaces. */
  title: string;
  description?: string;
  kind: FieldKind;
  /** The values of a `choice` field (its `enum`). */
  choices?: ReadonlyArray<string | number | boolean>;
  /** A `list` field's rows. */
  item?: ItemSpec;
  /** A `file` field's largest size in bytes (its `maxBytes`, never above FILE_CAP_BYTES). */
  maxBytes?: number;
  /** A `file` field's accepted media types (`application/pdf`, `image/*`); none: any. */
  accept?: readonly string[];
}

/** What an answer holds for an uploaded file. */
export interface FileRef {
  /** The stored file's id (the download is `/api/files/<id>`). */
  file: string;
  name: string;
  size: number;
  type: string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` has the shape of a file reference. */
export function isFileRef(value: unknown): value is FileRef {
  if (!isRecord(value)) return false;
  const { file, name, size, type } = value;
  return typeof file === 'string' && file !== '' && typeof name === 'string' && typeof type === 'string' && typeof size === 'number' && Number.isInteger(size) && size >= 0;
}

/** `schema.properties` of an act's params (empty when absent or not a map). */
export function propertiesOf(params: unknown): Record<string, unknown> {
  if (!isRecord(params) || !isRecord(params.schema)) return {};
  return isRecord(params.schema.properties) ? params.schema.properties : {};
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function choicesOf(spec: Record<string, unknown>): Array<string | number | boolean> | undefined {
  return Array.isArray(spec.enum) && spec.enum.length > 0 && spec.enum.every(isScalar) ? spec.enum : undefined;
}

function scalarKind(type: unknown, format: unknown): FieldKind {
  if (type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'string' || type === undefined) {
    if (format === 'date') return 'date';
    if (format === 'multiline') return 'multiline';
    return type === 'string' ? 'text' : 'untyped';
  }
  return 'untyped';
}

function itemOf(items: unknown): ItemSpec | undefined {
  if (!isRecord(items)) return undefined;
  const choices = choicesOf(items);
  if (choices) return { kind: 'choice', choices };
  const kind = scalarKind(items.type, items.format);
  return kind === 'untyped' || kind === 'multiline' ? undefined : { kind: kind as ItemSpec['kind'] };
}

/** A field's spec from its schema (unknown or malformed types are `untyped`: not checked, drawn by their value). */
export function fieldSpec(key: string, raw: unknown): FieldSpec {
  const spec = isRecord(raw) ? raw : {};
  const title = typeof spec.title === 'string' && spec.title.trim() ? spec.title : key.replaceAll('_', ' ');
  const base: FieldSpec = { key, title, kind: 'untyped', ...(typeof spec.description === 'string' ? { description: spec.description } : {}) };
  const choices = choicesOf(spec);
  if (choices && spec.type !== 'array' && spec.type !== 'file') return { ...base, kind: 'choice', choices };
  if (spec.type === 'array') {
    const item = itemOf(spec.items);
    return item ? { ...base, kind: 'list', item } : base;
  }
  if (spec.type === 'file') {
    const max = typeof spec.maxBytes === 'number' && Number.isInteger(spec.maxBytes) && spec.maxBytes > 0 ? Math.min(spec.maxBytes, FILE_CAP_BYTES) : FILE_CAP_BYTES;
    const accept = Array.isArray(spec.accept) ? spec.accept.filter((a): a is string => typeof a === 'string' && a !== '') : [];
    return { ...base, kind: 'file', maxBytes: max, ...(accept.length ? { accept } : {}) };
  }
  return { ...base, kind: scalarKind(spec.type, spec.format) };
}

/** The typed fields `params.schema.properties` declares, by key. */
export function answerFields(params: unknown): Map<string, FieldSpec> {
  return new Map(Object.entries(propertiesOf(params)).map(([key, raw]) => [key, fieldSpec(key, raw)]));
}

/** A size in words: `2 MiB`, `500 KiB`, `812 bytes` (one decimal where it is not whole). */
export function formatBytes(bytes: number): string {
  const round = (n: number) => String(Math.round(n * 10) / 10);
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KiB`;
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/i;

/** Whether `text` is a media type without parameters (`application/pdf`; `image/*` as an `accept` entry). */
export function isMediaType(text: string): boolean {
  return text.length <= 200 && MEDIA_TYPE.test(text);
}

/** Whether media type `type` is one `accept` names (`image/*` takes every image type); any when none is named. */
export function acceptsType(accept: readonly string[] | undefined, type: string): boolean {
  if (!accept || accept.length === 0) return true;
  const t = type.toLowerCase().split(';')[0].trim();
  return accept.some((a) => {
    const want = a.toLowerCase().trim();
    return want.endsWith('/*') ? t.startsWith(want.slice(0, -1)) : t === want;
  });
}
