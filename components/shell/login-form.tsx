/**
 * Sign in with name and password. A wrong password says so and clears the password field; too
 * many failures show why, when the next try is allowed, and keep the button disabled until then.
 * While no admin exists yet, the visitor is sent to /setup; a signed-in visitor goes on at once.
 * The inputs are uncontrolled (read on submit), so what was typed before hydration counts.
 */
'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, type FormEvent } from 'react';
import { useMe, useSetSignedIn } from '../data/auth.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { TextField } from '../ui/text-field.tsx';
import { AuthCard } from './auth-card.tsx';
import styles from './auth-card.module.css';
import { safeNext } from './return-to.ts';
import { useCountdown } from './use-countdown.ts';
import { useHydrated } from './use-hydrated.ts';

/** Why the server slowed this sign-in down (`details.reason` of `auth.rate_limited`). */
function rateLimitReason(details: unknown): string {
  switch ((details as { reason?: unknown } | undefined)?.reason) {
    case 'address':
      return 'Too many wrong passwords came from your network address, for any user name.';
    case 'name':
      return 'Many addresses tried wrong passwords for this name, so sign-ins from new places are slowed down; where you signed in before, you are not.';
    default:
      return 'Each further wrong password from here doubles the wait; other places are not affected.';
  }
}

export function LoginForm() {
  const router = useRouter();
  const me = useMe();
  const hydrated = useHydrated();
  const setSignedIn = useSetSignedIn();
  const setupNeeded = useApiQuery('auth.setupNeeded', undefined, { staleTime: 0 });
  const passwordRef = useRef<HTMLInputElement>(null);
  const goOn = () => router.replace(safeNext(new URLSearchParams(window.location.search).get('next')));
  const login = useApiMutation('auth.login', {
    onSuccess: (data) => {
      setSignedIn(data.caller);
      goOn();
    },
    onError: (err) => {
      if (err.code !== 'auth.invalid' || !passwordRef.current) return;
      passwordRef.current.value = '';
      passwordRef.current.focus();
    },
  });
  const error = login.error;
  const waitSecs = useCountdown(error?.code === 'auth.rate_limited' ? error.retryAfterSecs : undefined, error);

  useEffect(() => {
    if (setupNeeded.data?.needed) router.replace('/setup');
  }, [setupNeeded.data, router]);
  useEffect(() => {
    if (me.status === 'signed-in' && login.isIdle) goOn();
  }, [me.status, login.isIdle]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    login.mutate({ name: String(form.get('username') ?? '').trim(), password: String(form.get('password') ?? '') });
  };

  return (
    <AuthCard title="Sign in" intro="Use the name and password an admin gave you.">
      <form className={styles.form} onSubmit={submit}>
        <TextField label="User name" name="username" autoComplete="username" autoFocus required />
        <TextField ref={passwordRef} label="Password" name="password" type="password" autoComplete="current-password" required />
        {error?.code === 'auth.invalid' ? (
          <p role="alert" className={styles.problem}>
            That user name and password do not match. Check both and try again.
          </p>
        ) : error?.code === 'auth.rate_limited' ? (
          <p role="alert" className={styles.problem}>
            Too many failed sign-ins. {waitSecs > 0 ? `You can try again in ${waitSecs} s.` : 'You can try again now.'} {rateLimitReason(error.details)}
          </p>
        ) : error ? (
          <ErrorNote error={error} />
        ) : null}
        <Button type="submit" variant="primary" className={styles.submit} busy={login.isPending || login.isSuccess} disabled={!hydrated || waitSecs > 0}>
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
