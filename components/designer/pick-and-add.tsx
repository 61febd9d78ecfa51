/**
 * One or more labelled choices and a button that adds what they name (a trigger of a package, a
 * hook of an event and a package), in the property panel. The choices are the selects' own state;
 * each starts at its `initial` option (else the first), also when its options arrive later.
 */
'use client';
import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';

export interface Pick {
  label: string;
  options: readonly string[];
  initial?: string;
  /** How an option reads (default: as it is). */
  show?: (option: string) => string;
}

export function PickAndAdd({ picks, button, onAdd }: { picks: readonly Pick[]; button: string; onAdd: (chosen: string[]) => void }) {
  const id = useId();
  const [values, setValues] = useState<string[]>(() => picks.map((p) => p.initial ?? p.options[0] ?? ''));
  // a choice not among the options (they arrived after the panel opened) is the pick's initial one, not the first
  const chosen = picks.map((p, i) => (p.options.includes(values[i]) ? values[i] : (p.initial ?? p.options[0] ?? '')));
  return (
    <div className={styles.adderRow}>
      {picks.map((pick, i) => (
        <div key={pick.label} className={styles.field}>
          <label htmlFor={`${id}-${i}`}>{pick.label}</label>
          <select id={`${id}-${i}`} value={chosen[i]} onChange={(e) => setValues(chosen.map((v, j) => (j === i ? e.currentTarget.value : v)))}>
            {pick.options.map((option) => (
              <option key={option} value={option}>
                {pick.show ? pick.show(option) : option}
              </option>
            ))}
          </select>
        </div>
      ))}
      <Button size="sm" className={styles.adderButton} disabled={chosen.some((v) => !v)} onClick={() => onAdd(chosen)}>
        {button}
      </Button>
    </div>
  );
}
