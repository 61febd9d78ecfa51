/** An empty list or page that tells the user what to do next (title, one sentence, an action). */
import type { ReactNode } from 'react';
import styles from './empty-state.module.css';
import { Icon, type IconName } from './icons.tsx';

export function EmptyState({ icon = 'info', title, children, action }: { icon?: IconName; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section className={styles.empty} aria-label={title}>
      <span className={styles.icon}>
        <Icon name={icon} size={22} />
      </span>
      <h2 className={styles.title}>{title}</h2>
      {children ? <div className={styles.text}>{children}</div> : null}
      {action ? <div className={styles.action}>{action}</div> : null}
    </section>
  );
}
