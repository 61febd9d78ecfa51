/** The frame of every signed-in page: the sidebar and the scrolling main area. */
import type { ReactNode } from 'react';
import styles from './app-shell.module.css';
import { Sidebar } from './sidebar.tsx';

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <Sidebar />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
