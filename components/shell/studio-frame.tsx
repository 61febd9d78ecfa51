/**
 * The signed-in part of the studio: waits for `auth.me`, sends a signed-out visitor to /login
 * (with the page to come back to), and keeps the live connection open while signed in.
 * State: loading (frame without content) → signed-in (content, live connected) | signed-out
 * (redirecting) | error (the server cannot say who this is: shown with a retry).
 */
'use client';
import { useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { useMe } from '../data/auth.ts';
import { LiveProvider } from '../data/live.tsx';
import { apiKey } from '../data/query-keys.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { AppShell } from './app-shell.tsx';
import { loginHref } from './return-to.ts';
import styles from './app-shell.module.css';

export function StudioFrame({ children }: { children: ReactNode }) {
  const me = useMe();
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (me.status === 'signed-out') router.replace(loginHref(pathname, window.location.search));
  }, [me.status, pathname, router]);
  const recheck = () => void queryClient.invalidateQueries({ queryKey: apiKey('auth.me') });
  return (
    <LiveProvider enabled={me.status === 'signed-in'} onDenied={recheck}>
      <AppShell>
        {me.status === 'signed-in' ? (
          children
        ) : me.status === 'error' ? (
          <ErrorNote title="The studio cannot reach the server" error={me.error} onRetry={recheck} />
        ) : (
          <div className={styles.waiting}>
            <Spinner label={me.status === 'signed-out' ? 'Going to the sign-in page' : 'Checking who you are'} />
          </div>
        )}
      </AppShell>
    </LiveProvider>
  );
}
