/**
 * One input of a task form, by the field's kind: text, number, checkbox, choice or JSON. A required
 * field says so (a mark beside its label, `aria-required`); `invalid` marks one left blank.
 */
'use client';
import { useId } from 'react';
import { fieldText, type FormField } from './form-fields.ts';
import styles from './task-form.module.css';

interface OutputFieldProps {
  field: FormField;
  value: string | boolean;
  disabled: boolean;
  invalid?: boolean;
  onChange: (value: string | boolean) => void;
}

export function OutputField({ field, value, disabled, invalid = false, onChange }: OutputFieldProps) {
  const id = useId();
  const hintId = field.description ? `${id}-hint` : undefined;
  const common = { id, name: field.key, disabled, required: field.required, 'aria-required': field.required || undefined, 'aria-invalid': invalid || undefined, 'aria-describedby': hintId };
  const mark = field.required ? (
    <span className={styles.requiredMark} title="required" aria-hidden="true">
      {' *'}
    </span>
  ) : null;
  if (field.kind === 'boolean') {
    return (
      <div className={styles.check}>
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>
          {field.label}
          {mark}
        </label>
        {hintId ? <p id={hintId} className={styles.hint}>{field.description}</p> : null}
      </div>
    );
  }
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {field.label}
        {mark}
      </label>
      {field.kind === 'select' ? (
        <select {...common} className={styles.input} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {field.choices?.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      ) : field.kind === 'json' ? (
        <textarea {...common} className={styles.input} rows={3} value={String(value)} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
      ) : (
        <input {...common} className={styles.input} type={field.kind === 'number' ? 'number' : 'text'} value={String(value)} onChange={(e) => onChange(e.target.value)} />
      )}
      {hintId ? <p id={hintId} className={styles.hint}>{field.description}</p> : null}
    </div>
  );
}

/** The initial input value of a field. */
export function initialInput(field: FormField): string | boolean {
  return field.kind === 'boolean' ? field.initial === true : fieldText(field, field.initial);
}
