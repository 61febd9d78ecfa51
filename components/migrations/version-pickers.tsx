/**
 * The two versions of a migration: the source (each version with how many of its processes are
 * still running) and the target. Stateless: the dialog holds the pair.
 */
'use client';
import { useId } from 'react';
import styles from './migrations.module.css';

export interface VersionChoice {
  ver: number;
  /** Processes of this version that have not ended. */
  running: number;
}

function VersionSelect({ label, value, versions, onChange }: { label: string; value: number; versions: readonly VersionChoice[]; onChange: (ver: number) => void }) {
  const id = useId();
  return (
    <div className={styles.picker}>
      <label htmlFor={id}>{label}</label>
      <select className={styles.select} id={id} value={value} onChange={(e) => onChange(Number(e.currentTarget.value))}>
        {versions.map((v) => (
          <option key={v.ver} value={v.ver}>
            v{v.ver} — {v.running === 1 ? '1 running process' : `${v.running} running processes`}
          </option>
        ))}
      </select>
    </div>
  );
}

export function VersionPickers({ versions, from, to, onChange }: { versions: readonly VersionChoice[]; from: number; to: number; onChange: (pair: { from: number; to: number }) => void }) {
  return (
    <div className={styles.pickers}>
      <VersionSelect label="From version" value={from} versions={versions} onChange={(ver) => onChange({ from: ver, to })} />
      <span aria-hidden="true" className={styles.arrow}>
        →
      </span>
      <VersionSelect label="To version" value={to} versions={versions} onChange={(ver) => onChange({ from, to: ver })} />
    </div>
  );
}
