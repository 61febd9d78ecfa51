/**
 * The bar over a version comparison: which versions (old → new), overlay or side by side, and
 * links (`children`). Stateless: the comparison owns the choices.
 */
'use client';
import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './compare.module.css';

export interface CompareToolbarProps {
  /** The model's versions, newest first. */
  versions: readonly number[];
  from: number;
  to: number;
  onChoose: (pair: { from: number; to: number }) => void;
  sideBySide: boolean;
  onSideBySide: (on: boolean) => void;
  children?: ReactNode;
}

function VersionPicker({ label, value, versions, onChange }: { label: string; value: number; versions: readonly number[]; onChange: (ver: number) => void }) {
  return (
    <label className={styles.picker}>
      {label}
      <select value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {versions.map((ver) => (
          <option key={ver} value={ver}>
            v{ver}
          </option>
        ))}
      </select>
    </label>
  );
}

export function CompareToolbar({ versions, from, to, onChoose, sideBySide, onSideBySide, children }: CompareToolbarProps) {
  return (
    <div role="toolbar" className={styles.toolbar} aria-label="Comparison">
      <VersionPicker label="Old" value={from} versions={versions} onChange={(ver) => onChoose({ from: ver, to })} />
      <VersionPicker label="New" value={to} versions={versions} onChange={(ver) => onChoose({ from, to: ver })} />
      <div className={styles.modes} role="group" aria-label="Show">
        <Button size="sm" aria-pressed={!sideBySide} onClick={() => onSideBySide(false)}>
          Overlay
        </Button>
        <Button size="sm" aria-pressed={sideBySide} onClick={() => onSideBySide(true)}>
          Side by side
        </Button>
      </div>
      <span className={styles.legend} aria-hidden="true">
        <span data-mark="added">+ added</span>
        <span data-mark="removed">− removed</span>
        <span data-mark="changed">~ changed</span>
        <span data-mark="moved">↷ moved</span>
      </span>
      <span className={styles.links}>{children}</span>
    </div>
  );
}
