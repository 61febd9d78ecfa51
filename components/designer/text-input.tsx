/**
 * A labelled one-line input that reports its value when it is left or Enter is pressed (not on
 * every key), so each change is one YAML edit and one undo step. It resets when `value` changes
 * from outside (the YAML was edited). A `problem` (a sentence) shows under it and marks it invalid.
 */
'use client';
import { useId } from 'react';
import styles from './designer.module.css';

export interface TextInputProps {
  label: string;
  value: string;
  onCommit: (value: string) => void;
  hint?: string;
  list?: string;
  placeholder?: string;
  readOnly?: boolean;
  mono?: boolean;
  /** What is wrong with the value, as a sentence. */
  problem?: string;
}

export function TextInput({ label, value, onCommit, hint, list, placeholder, readOnly, mono, problem }: TextInputProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  const commit = (text: string) => {
    if (text !== value) onCommit(text);
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        key={value}
        className={mono ? styles.code : undefined}
        defaultValue={value}
        list={list}
        placeholder={placeholder}
        readOnly={readOnly}
        aria-describedby={described || undefined}
        aria-invalid={problem ? true : undefined}
        onBlur={(e) => commit(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
          if (e.key === 'Escape') e.currentTarget.value = value;
        }}
      />
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}
