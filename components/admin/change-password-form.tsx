/** Changes the signed-in user's own password (ends their other sessions; this one gets a new cookie). */
'use client';
import { useRef, useState, type FormEvent } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { useHydrated } from '../shell/use-hydrated.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './admin.module.css';

export function ChangePasswordForm() {
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [mismatch, setMismatch] = useState(false);
  const change = useApiMutation('auth.changePassword', { onSuccess: () => formRef.current?.reset() });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const next = String(form.get('new') ?? '');
    setMismatch(next !== String(form.get('repeat') ?? ''));
    if (next !== String(form.get('repeat') ?? '')) return;
    change.mutate({ oldPassword: String(form.get('old') ?? ''), newPassword: next });
  };
  return (
    <section className={styles.section} aria-labelledby="password-title">
      <h2 id="password-title" className={styles.sectionTitle}>
        Change your password
      </h2>
      <form ref={formRef} className={styles.inlineForm} onSubmit={submit} aria-label="Change your password">
        <TextField label="Current password" name="old" type="password" autoComplete="current-password" required />
        <TextField label="New password" name="new" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters. Your other sessions end." />
        <TextField label="Repeat the new password" name="repeat" type="password" autoComplete="new-password" required error={mismatch ? 'The two passwords differ.' : null} />
        <Button type="submit" variant="primary" disabled={!hydrated} busy={change.isPending}>
          Change password
        </Button>
      </form>
      {change.error ? <ErrorNote error={change.error} title="The password was not changed" /> : null}
      {change.isSuccess ? <p role="status">Your password was changed.</p> : null}
    </section>
  );
}
