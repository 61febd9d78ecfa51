/**
 * One input of a task form, by the field's kind (form-fields.ts): text, a text area, a date,
 * number, checkbox, choice, a list of rows (list-field.tsx), a file (file-field.tsx) or JSON. A
 * required field says so (a mark beside its label, `aria-required`); `problems` are the shared
 * check's sentences about its value, shown under it (and the field marked invalid), as is a blank
 * required one (`invalid`).
 */
'use client';
import { useId, type ReactNode } from 'react';
import type { FieldInput, FormField } from './form-fields.ts';
import { FileField } from './file-field.tsx';
import { ListField } from './list-field.tsx';
import { RequiredMark } from './required-mark.tsx';
import { ScalarInput } from './scalar-input.tsx';
import styles from './task-form.module.css';

interface OutputFieldProps {
  field: FormField;
  value: FieldInput;
  disabled: boolean;
  invalid?: boolean;
  /** The sentences of the shared check about this field's value. */
  problems?: readonly string[];
  onChange: (value: FieldInput) => void;
}

/** The field's help and the problems of its value, under it; `ids` names them for `aria-describedby`. */
function Notes({ id, field, problems }: { id: string; field: FormField; problems: readonly string[] }): ReactNode {
  return (
    <>
      {field.description ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {field.description}
        </p>
      ) : null}
      {problems.length > 0 ? (
        <p id={`${id}-problem`} className={styles.fieldProblem}>
          {problems.join(' ')}
        </p>
      ) : null}
    </>
  );
}

export function OutputField({ field, value, disabled, invalid = false, problems = [], onChange }: OutputFieldProps) {
  const id = useId();
  const described = [field.description ? `${id}-hint` : '', problems.length ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
  const bad = invalid || problems.length > 0;
  const common = { id, name: field.key, disabled, required: field.required, 'aria-required': field.required || undefined, 'aria-invalid': bad || undefined, 'aria-describedby': described };
  const notes = <Notes id={id} field={field} problems={problems} />;
  if (field.kind === 'boolean') {
    return (
      <div className={styles.check}>
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>
          {field.label}
          <RequiredMark required={field.required} />
        </label>
        {notes}
      </div>
    );
  }
  if (field.kind === 'list') return <ListField field={field} rows={Array.isArray(value) ? value : []} disabled={disabled} invalid={bad} described={described} notes={notes} onChange={onChange} />;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {field.label}
        <RequiredMark required={field.required} />
      </label>
      {field.kind === 'file' ? (
        <FileField field={field} file={value instanceof File ? value : null} inputProps={common} onChange={onChange} />
      ) : (
        <ScalarInput kind={field.kind} choices={field.choices} inputProps={common} value={typeof value === 'string' ? value : ''} onChange={onChange} />
      )}
      {notes}
    </div>
  );
}
