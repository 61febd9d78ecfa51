/** The signed-in user (name and roles, linking to their account page) and the sign-out button. */
'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMe, useSignOut } from '../data/auth.ts';
import { Icon } from '../ui/icons.tsx';
import styles from './sidebar.module.css';

export function UserMenu() {
  const me = useMe();
  const signOut = useSignOut();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const name = me.caller?.name ?? '';
  const onSignOut = async () => {
    setBusy(true);
    try {
      await signOut();
    } finally {
      router.replace('/login');
    }
  };
  return (
    <div className={styles.user}>
      <span className={styles.avatar} aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </span>
      <Link href="/admin/account" className={styles.userText} title="Your account: password and API tokens">
        <span className={styles.userName} data-testid="user-name">
          {name}
        </span>
        <span className={styles.userRoles}>{me.caller?.roles.join(', ')}</span>
      </Link>
      <button type="button" className={styles.iconButton} onClick={onSignOut} disabled={busy} aria-label="Sign out" title="Sign out">
        <Icon name="logout" />
      </button>
    </div>
  );
}
