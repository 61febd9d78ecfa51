/**
 * The input of one scalar value by its kind: a line of text, a text area (multiline, JSON), a date
 * (`YYYY-MM-DD`), a number (a whole one for `integer`), a select of choices (a yes/no select for a
 * list's boolean rows). Stateless: the text goes to `onChange`.
 */
'use client';
import type { InputHTMLAttributes } from 'react';
import type { FormField } from './form-fields.ts';
import styles from './task-form.module.css';

type Kind = FormField['kind'] | 'boolean';

interface ScalarInputProps {
  kind: Kind;
  choices?: FormField['choices'];
  value: string;
  inputProps: InputHTMLAttributes<HTMLElement> & { id?: string; name?: string };
  onChange: (text: string) => void;
}

const INPUT_TYPES: Partial<Record<Kind, string>> = { date: 'date', number: 'number', integer: 'number' };

export function ScalarInput({ kind, choices, value, inputProps, onChange }: ScalarInputProps) {
  if (kind === 'choice' || kind === 'boolean') {
    const options = kind === 'boolean' ? ['true', 'false'] : (choices ?? []).map(String);
    return (
      <select {...(inputProps as InputHTMLAttributes<HTMLSelectElement>)} className={styles.input} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((c) => (
          <option key={c} value={c}>
            {kind === 'boolean' ? (c === 'true' ? 'yes' : 'no') : c}
          </option>
        ))}
      </select>
    );
  }
  if (kind === 'multiline' || kind === 'json') {
    return (
      <textarea {...(inputProps as InputHTMLAttributes<HTMLTextAreaElement>)} className={styles.input} rows={kind === 'json' ? 3 : 4} value={value} onChange={(e) => onChange(e.target.value)} spellCheck={kind !== 'json'} />
    );
  }
  return <input {...(inputProps as InputHTMLAttributes<HTMLInputElement>)} className={styles.input} type={INPUT_TYPES[kind] ?? 'text'} step={kind === 'number' ? 'any' : undefined} value={value} onChange={(e) => onChange(e.target.value)} />;
}
