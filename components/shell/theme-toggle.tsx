/** Switches between the light and dark theme; its label says what a click does. */
'use client';
import { Icon } from '../ui/icons.tsx';
import styles from './sidebar.module.css';
import { useTheme } from './theme.ts';

export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = theme ? `Switch to ${next} theme` : 'Switch theme';
  return (
    <button type="button" className={styles.footerButton} onClick={toggle} aria-label={label} title={label} data-theme-now={theme ?? undefined}>
      <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
      <span className={styles.footerText}>{theme === 'dark' ? 'Light theme' : 'Dark theme'}</span>
    </button>
  );
}
