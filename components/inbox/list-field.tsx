/**
 * A list answer (`type: array`): one input per row of the list's item kind, each with a Remove
 * button, and Add row. Blank rows are left out of the answer (task-form.tsx drops them from the
 * inputs when it checks, so a problem's row number is the row shown). Stateless: the rows go to
 * `onChange`.
 */
'use client';
import { useId, type ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import type { FormField } from './form-fields.ts';
import { RequiredMark } from './required-mark.tsx';
import { ScalarInput } from './scalar-input.tsx';
import styles from './task-form.module.css';

interface ListFieldProps {
  field: FormField;
  rows: string[];
  disabled: boolean;
  invalid: boolean;
  described?: string;
  notes: ReactNode;
  onChange: (rows: string[]) => void;
}

export function ListField({ field, rows, disabled, invalid, described, notes, onChange }: ListFieldProps) {
  const id = useId();
  const item = field.item!;
  const blank = item.kind === 'choice' ? String(item.choices?.[0] ?? '') : item.kind === 'boolean' ? 'true' : '';
  const set = (i: number, text: string) => onChange(rows.map((r, j) => (j === i ? text : r)));
  return (
    <fieldset className={styles.list} disabled={disabled} aria-describedby={described} aria-invalid={invalid || undefined}>
      <legend className={styles.label}>
        {field.label}
        <RequiredMark required={field.required} />
      </legend>
      {rows.map((row, i) => (
        <div key={i} className={styles.row}>
          <ScalarInput kind={item.kind} choices={item.choices} value={row} inputProps={{ id: `${id}-${i}`, name: `${field.key}.${i}`, 'aria-label': `${field.label} row ${i + 1}` }} onChange={(text) => set(i, text)} />
          <Button size="sm" variant="ghost" icon="x" aria-label={`Remove row ${i + 1} of ${field.label}`} onClick={() => onChange(rows.filter((_, j) => j !== i))} />
        </div>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange([...rows, blank])}>
          Add row
        </Button>
      </div>
      {notes}
    </fieldset>
  );
}
