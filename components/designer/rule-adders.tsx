/**
 * Adding a catch or a timeout to the selected step or act, in the property panel: a catch by its
 * error code (empty: it catches any error) and a timeout after a duration. Each adds one rule
 * (one YAML edit) and selects it, so the palette then adds its acts into it. The text typed is
 * the inputs' own state until a rule is added.
 */
'use client';
import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';

interface RuleAdderProps {
  label: string;
  hint: string;
  button: string;
  /** Whether the button works with the input empty (a catch-all). */
  allowEmpty: boolean;
  onAdd: (on: string) => void;
}

function RuleAdder({ label, hint, button, allowEmpty, onAdd }: RuleAdderProps) {
  const id = useId();
  const [on, setOn] = useState('');
  const add = () => {
    if (!allowEmpty && !on.trim()) return;
    onAdd(on.trim());
    setOn('');
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <div className={styles.adderRow}>
        <input
          id={id}
          className={styles.code}
          value={on}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setOn(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button size="sm" onClick={add} disabled={!allowEmpty && !on.trim()}>
          {button}
        </Button>
      </div>
      <p id={`${id}-hint`} className={styles.hint}>
        {hint}
      </p>
    </div>
  );
}

export interface RuleAddersProps {
  onAddCatch: (ecode: string) => void;
  onAddTimeout: (after: string) => void;
}

export function RuleAdders({ onAddCatch, onAddTimeout }: RuleAddersProps) {
  return (
    <fieldset className={styles.fieldset}>
      <legend>Catches and timeouts</legend>
      <RuleAdder label="Catch error code" hint="Empty: catch any error. Then add its acts from the palette." button="Add catch" allowEmpty onAdd={onAddCatch} />
      <RuleAdder label="Timeout after" hint="e.g. 2h or 1d. Then add its acts from the palette." button="Add timeout" allowEmpty={false} onAdd={onAddTimeout} />
    </fieldset>
  );
}
