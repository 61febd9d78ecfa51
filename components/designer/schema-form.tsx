/**
 * A form generated from a JSON Schema: text, number, boolean, enum, nested objects, maps of
 * entries (map-field.tsx) and arrays of plain values (one value written alone counts as a list of
 * one); anything else (and a schema
 * without properties, or a value of another shape than its field's) is edited as raw YAML.
 * Stateless: every committed field calls `onChange` with the whole new value. Numbers that are not
 * numbers (`{{ amount }}`) stay text, since params are evaluated expressions. `choices` suggest
 * values for text fields by name (e.g. the deployed models for a subflow's `to`).
 */
'use client';
import { useId } from 'react';
import styles from './designer.module.css';
import { MapField } from './map-field.tsx';
import { RawYamlField } from './raw-yaml-field.tsx';
import { TextInput } from './text-input.tsx';

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  /** The schema of every other key's value: with `properties` of its own, the object is a map of entries (map-field.tsx). */
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  required?: string[];
  description?: string;
  title?: string;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);
const isPlain = (schema: JsonSchema | undefined) => !!schema && ['string', 'number', 'integer'].includes(typeOf(schema) ?? '');
const isScalarText = (value: unknown) => value === undefined || ['string', 'number', 'boolean'].includes(typeof value);

/** Suggested values of text fields, by field name. */
export type FieldChoices = Readonly<Record<string, readonly string[]>>;

function ChoicesList({ id, choices }: { id: string; choices: readonly string[] }) {
  return (
    <datalist id={id}>
      {choices.map((c) => (
        <option key={c} value={c} />
      ))}
    </datalist>
  );
}

function parseNumber(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

function EnumField({ label, options, value, onChange }: { label: string; options: unknown[]; value: unknown; onChange: (v: unknown) => void }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : options.find((o) => String(o) === e.currentTarget.value))}>
        <option value="">(not set)</option>
        {options.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

function BooleanField({ label, value, onChange }: { label: string; value: unknown; onChange: (v: unknown) => void }) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
      {label}
    </label>
  );
}

interface SchemaFieldProps {
  name: string;
  schema: JsonSchema;
  value: unknown;
  onChange: (v: unknown) => void;
  choices?: readonly string[];
}

export function SchemaField({ name, schema, value, onChange, choices }: SchemaFieldProps) {
  const listId = `choices-${useId()}`;
  const label = schema.title ?? name;
  const type = typeOf(schema);
  if (schema.enum) return <EnumField label={label} options={schema.enum} value={value} onChange={onChange} />;
  if (type === 'boolean') return <BooleanField label={label} value={value} onChange={onChange} />;
  if (type === 'string' && isScalarText(value)) {
    return (
      <>
        <TextInput label={label} hint={schema.description} list={choices ? listId : undefined} value={value === undefined ? '' : String(value)} onCommit={(t) => onChange(t === '' ? undefined : t)} />
        {choices ? <ChoicesList id={listId} choices={choices} /> : null}
      </>
    );
  }
  if ((type === 'number' || type === 'integer') && isScalarText(value)) return <TextInput label={label} hint={schema.description} value={value === undefined ? '' : String(value)} onCommit={(t) => onChange(parseNumber(t))} />;
  if (type === 'array' && isPlain(schema.items) && (Array.isArray(value) || isScalarText(value))) {
    const numeric = typeOf(schema.items!) !== 'string';
    const items = value === undefined ? [] : Array.isArray(value) ? value : [value];
    return (
      <TextInput
        label={`${label} (comma-separated)`}
        hint={schema.description}
        value={items.map(String).join(', ')}
        onCommit={(t) => {
          const items = t.split(',').map((s) => s.trim()).filter(Boolean);
          onChange(items.length ? items.map((s) => (numeric ? parseNumber(s) : s)) : undefined);
        }}
      />
    );
  }
  if (schema.properties && (value === undefined || isRecord(value))) {
    return (
      <fieldset className={styles.fieldset}>
        <legend>{label}</legend>
        <SchemaForm schema={schema} value={value} onChange={onChange} />
      </fieldset>
    );
  }
  const entries = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (entries?.properties && (value === undefined || (isRecord(value) && Object.values(value).every((v) => v === null || isRecord(v))))) {
    return (
      <MapField
        label={label}
        entry={entries.title ?? 'Entry'}
        hint={schema.description}
        value={value as Record<string, unknown> | undefined}
        onChange={onChange}
        renderEntry={(v, set) => <SchemaForm schema={entries} value={v} onChange={(next) => set(next ?? {})} label={entries.title} />}
      />
    );
  }
  return <RawYamlField label={label} hint={schema.description} value={value} onChange={onChange} rows={3} />;
}

export interface SchemaFormProps {
  schema: JsonSchema | undefined;
  value: unknown;
  onChange: (v: unknown) => void;
  label?: string;
  choices?: FieldChoices;
}

export function SchemaForm({ schema, value, onChange, label = 'params', choices }: SchemaFormProps) {
  if (!schema?.properties || (value !== undefined && !isRecord(value))) return <RawYamlField label={label} value={value} onChange={onChange} />;
  const record = (value ?? {}) as Record<string, unknown>;
  const known = Object.keys(schema.properties);
  const extra = Object.fromEntries(Object.entries(record).filter(([key]) => !known.includes(key)));
  const set = (key: string, v: unknown) => {
    const next = { ...record, [key]: v };
    if (v === undefined) delete next[key];
    onChange(Object.keys(next).length ? next : undefined);
  };
  return (
    <>
      {known.map((key) => (
        <SchemaField key={key} name={key} schema={schema.properties![key]} value={record[key]} onChange={(v) => set(key, v)} choices={choices?.[key]} />
      ))}
      {Object.keys(extra).length ? <RawYamlField label="other params" value={extra} onChange={(v) => onChange({ ...Object.fromEntries(known.filter((k) => k in record).map((k) => [k, record[k]])), ...(isRecord(v) ? v : {}) })} /> : null}
    </>
  );
}
