/**
 * The one-time setup: creates the first admin while `auth.setupNeeded` says none exists, then
 * signs them in. Once an admin exists the page only points to the sign-in page. Inputs are
 * uncontrolled (read on submit), like the sign-in form.
 */
'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callMutation } from '../data/api-client.ts';
import { useSetSignedIn } from '../data/auth.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { TextField } from '../ui/text-field.tsx';
import { AuthCard } from './auth-card.tsx';
import styles from './auth-card.module.css';
import { useHydrated } from './use-hydrated.ts';

export function SetupForm() {
  const router = useRouter();
  const setSignedIn = useSetSignedIn();
  const needed = useApiQuery('auth.setupNeeded', undefined, { staleTime: 0 });
  const hydrated = useHydrated();
  const [mismatch, setMismatch] = useState(false);
  const setup = useApiMutation('auth.setup', {
    invalidates: ['auth.setupNeeded'],
    onSuccess: async (_user, input) => {
      const session = await callMutation('auth.login', input);
      setSignedIn(session.caller);
      router.replace('/');
    },
  });

  if (needed.isPending) {
    return (
      <AuthCard title="Set up acts studio">
        <Spinner label="Checking whether the setup is open" />
      </AuthCard>
    );
  }
  if (needed.isError) {
    return (
      <AuthCard title="Set up acts studio">
        <ErrorNote error={needed.error} onRetry={() => void needed.refetch()} />
      </AuthCard>
    );
  }
  if (!needed.data.needed && !setup.isSuccess) {
    return (
      <AuthCard title="Setup is done" intro="An admin already exists, so this one-time setup is closed.">
        <p className={styles.footnote}>
          <Link href="/login">Go to the sign-in page</Link>
        </p>
      </AuthCard>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const differ = password !== String(form.get('repeat') ?? '');
    setMismatch(differ);
    if (!differ) setup.mutate({ name: String(form.get('username') ?? '').trim(), password });
  };

  return (
    <AuthCard title="Create the first admin" intro="No one can sign in yet. The account you create here can add everyone else.">
      <form className={styles.form} onSubmit={submit}>
        <TextField label="Admin user name" name="username" autoComplete="username" required defaultValue="admin" />
        <TextField label="Password" name="password" type="password" autoComplete="new-password" required />
        <TextField
          label="Repeat the password"
          name="repeat"
          type="password"
          autoComplete="new-password"
          required
          error={mismatch ? 'The two passwords differ. Type the same password twice.' : null}
        />
        {setup.error ? <ErrorNote error={setup.error} /> : null}
        <Button type="submit" variant="primary" className={styles.submit} busy={setup.isPending || setup.isSuccess} disabled={!hydrated}>
          Create admin and sign in
        </Button>
      </form>
    </AuthCard>
  );
}
