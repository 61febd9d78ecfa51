/**
 * The frame of one studio page: its title, a line saying what it is for, actions on the right,
 * and the permission it needs — without it the page says which role to ask for instead of
 * rendering content that would fail.
 */
'use client';
import type { ReactNode } from 'react';
import { useMe } from '../data/auth.ts';
import { rolesFor, type Permission } from '../data/roles.ts';
import { EmptyState } from '../ui/empty-state.tsx';
import styles from './page.module.css';

export interface PageProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** What the user must be allowed to do to use this page (default `read`). */
  needs?: Permission;
  children?: ReactNode;
}

export function Page({ title, description, actions, needs = 'read', children }: PageProps) {
  const me = useMe();
  const allowed = me.can(needs);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          {description ? <p className={styles.description}>{description}</p> : null}
        </div>
        {allowed && actions ? <div className={styles.actions}>{actions}</div> : null}
      </header>
      {allowed ? (
        children
      ) : (
        <EmptyState icon="ban" title="This page is not open to your roles">
          It needs one of the roles {rolesFor(needs).join(', ')}. Ask an admin to add one to your account.
        </EmptyState>
      )}
    </div>
  );
}
