/**
 * Adding a trigger to the workflow, in the property panel of the workflow node: choose one of the
 * trigger packages (`acts.event.*`: manual, hook, chat, schedule) and add it; the new trigger is
 * selected, so a schedule's cron is set next in its own panel. The choice is the select's own state.
 */
'use client';
import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';

export function TriggerAdder({ packages, onAdd }: { packages: readonly string[]; onAdd: (uses: string) => void }) {
  const id = useId();
  const [uses, setUses] = useState(packages.find((p) => p.endsWith('.schedule')) ?? packages[0] ?? '');
  const chosen = packages.includes(uses) ? uses : (packages[0] ?? '');
  return (
    <div className={styles.field}>
      <label htmlFor={id}>Trigger</label>
      <div className={styles.adderRow}>
        <select id={id} value={chosen} onChange={(e) => setUses(e.currentTarget.value)}>
          {packages.map((p) => (
            <option key={p} value={p}>
              {p.replace(/^acts\.event\./, '')}
            </option>
          ))}
        </select>
        <Button size="sm" disabled={!chosen} onClick={() => onAdd(chosen)}>
          Add trigger
        </Button>
      </div>
    </div>
  );
}
