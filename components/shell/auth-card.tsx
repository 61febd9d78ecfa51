/** The centred card of the sign-in and setup pages, with the brand above it. */
import type { ReactNode } from 'react';
import { Icon } from '../ui/icons.tsx';
import styles from './auth-card.module.css';

export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main className={styles.screen}>
      <div className={styles.brand}>
        <span className={styles.logo} aria-hidden="true">
          <Icon name="workflow" size={18} />
        </span>
        acts studio
      </div>
      <section className={styles.card} aria-labelledby="auth-title">
        <h1 id="auth-title" className={styles.title}>
          {title}
        </h1>
        {intro ? <p className={styles.intro}>{intro}</p> : null}
        {children}
      </section>
    </main>
  );
}
