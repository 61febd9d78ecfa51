/**
 * A value edited as raw YAML text (for anything the schema form cannot draw). The text is the
 * input's own state until it is left (blur) or Ctrl/Cmd+Enter: then it is parsed and sent up, or
 * the parse error is shown and nothing changes. A template written alone (`{{ users }}`) stays the
 * text it is (YAML would read it as a map), since values are evaluated expressions.
 */
'use client';
import { useId, useState } from 'react';
import YAML from 'yaml';
import styles from './designer.module.css';

const TEMPLATE_ALONE = /^\{\{[^{}]*\}\}$/;

/** The value a text stands for: nothing when blank, a template alone as itself, else its YAML. */
function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return TEMPLATE_ALONE.test(trimmed) ? trimmed : YAML.parse(text);
}

export interface RawYamlFieldProps {
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  rows?: number;
  hint?: string;
}

export function RawYamlField({ label, value, onChange, rows = 4, hint }: RawYamlFieldProps) {
  const id = useId();
  const shown = value === undefined ? '' : YAML.stringify(value, { lineWidth: 0 }).trimEnd();
  const [error, setError] = useState<string | null>(null);
  const apply = (text: string) => {
    try {
      const parsed = parseValue(text);
      setError(null);
      if (YAML.stringify(parsed ?? null) !== YAML.stringify(value ?? null)) onChange(parsed);
    } catch (err) {
      setError((err as Error).message.split('\n')[0]);
    }
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label} (YAML)</label>
      <textarea
        id={id}
        key={shown}
        className={styles.code}
        defaultValue={shown}
        rows={rows}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onBlur={(e) => apply(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply(e.currentTarget.value);
        }}
      />
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? <p className={styles.fieldError}>{error}</p> : null}
    </div>
  );
}
