/** The studio's button: primary, secondary, ghost or danger; `busy` shows a spinner and blocks clicks. */
import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';
import { Icon, type IconName } from './icons.tsx';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md';
  icon?: IconName;
  busy?: boolean;
}

export function Button({ variant = 'secondary', size = 'md', icon, busy = false, disabled, className, children, type = 'button', ...rest }: ButtonProps) {
  const classes = [styles.button, styles[variant], styles[size], className].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy ? <Icon name="loader" className={styles.spin} /> : icon ? <Icon name={icon} /> : null}
      {children}
    </button>
  );
}
