/** A state as colour + icon + label, the same in every list (colours: `--state-*` in globals.css). */
import type { CSSProperties } from 'react';
import { Icon } from './icons.tsx';
import styles from './state-badge.module.css';
import { stateLook } from './states.ts';

export function StateBadge({ state, label, compact = false }: { state: string; label?: string; compact?: boolean }) {
  const look = stateLook(state);
  const colours = { '--c': `var(--state-${look.state})`, '--c-bg': `var(--state-${look.state}-bg)` } as CSSProperties;
  const text = label ?? look.label;
  return (
    <span className={`${styles.badge} ${styles[look.variant]}`} style={colours} data-state={state} title={compact ? text : undefined}>
      <Icon name={look.icon} size={13} className={styles.icon} />
      <span className={compact ? 'visually-hidden' : styles.label}>{text}</span>
    </span>
  );
}
