/**
 * A map of named entries (a JSON Schema object whose `additionalProperties` is an object schema,
 * e.g. an interrupt's `outcomes` or its answer form's field types) edited as a list: each entry's
 * name, its fields (drawn by the caller's `renderEntry`, a generated form), Remove; and Add.
 * Entry order is kept across a rename; a rename to an empty or taken name is refused and said
 * under the name. Each edit calls `onChange` with the whole map.
 *
 * State: the refused rename (which entry, why), until the next edit.
 */
'use client';
import { useState } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';
import { freshId } from './model/edit-ids.ts';
import { TextInput } from './text-input.tsx';

export interface MapFieldProps {
  /** The map's title ("Outcomes"). */
  label: string;
  /** One entry's title ("Outcome"). */
  entry: string;
  hint?: string;
  value: Readonly<Record<string, unknown>> | undefined;
  onChange: (value: Record<string, unknown> | undefined) => void;
  renderEntry: (value: unknown, onChange: (value: unknown) => void) => React.ReactNode;
}

export function MapField({ label, entry, hint, value, onChange, renderEntry }: MapFieldProps) {
  const entries = Object.entries(value ?? {});
  const [refused, setRefused] = useState<{ name: string; why: string } | null>(null);
  const commit = (next: Array<[string, unknown]>) => {
    setRefused(null);
    onChange(next.length ? Object.fromEntries(next) : undefined);
  };
  const rename = (from: string, to: string) => {
    const name = to.trim();
    if (!name) return setRefused({ name: from, why: `An ${entry.toLowerCase()} needs a name` });
    if (name !== from && entries.some(([key]) => key === name)) return setRefused({ name: from, why: `An ${entry.toLowerCase()} named '${name}' exists already: choose another name` });
    commit(entries.map(([key, v]) => [key === from ? name : key, v]));
  };
  return (
    <fieldset className={styles.fieldset}>
      <legend>{label}</legend>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
      {entries.map(([name, v]) => (
        <div key={name} role="group" aria-label={`${entry} ${name}`} className={styles.mapEntry}>
          <TextInput label={`${entry} name`} mono value={name} onCommit={(to) => rename(name, to)} problem={refused?.name === name ? refused.why : undefined} />
          {renderEntry(v ?? {}, (next) => commit(entries.map(([key, old]) => [key, key === name ? (next ?? {}) : old])))}
          <Button size="sm" variant="ghost" onClick={() => commit(entries.filter(([key]) => key !== name))}>
            Remove {name}
          </Button>
        </div>
      ))}
      <Button size="sm" onClick={() => commit([...entries, [freshId(new Set(entries.map(([key]) => key)), entry.toLowerCase().replace(/[^a-z0-9_]+/g, '_')), {}]])}>
        Add {entry.toLowerCase()}
      </Button>
    </fieldset>
  );
}
