/**
 * The signed-in user's API tokens: list (name, created, last used), create — the secret is shown
 * once, right after — and revoke. State: the secret of the token just created (cleared when the
 * user confirms they copied it) and each mutation.
 */
'use client';
import { useRef, useState, type FormEvent } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { useHydrated } from '../shell/use-hydrated.ts';
import { useNow } from '../inbox/use-now.ts';
import { ago } from '../inbox/waited.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './admin.module.css';

export function TokensPanel() {
  const hydrated = useHydrated();
  const now = useNow();
  const formRef = useRef<HTMLFormElement>(null);
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const tokens = useApiQuery('tokens.list', {});
  const create = useApiMutation('tokens.create', {
    invalidates: ['tokens.list'],
    onSuccess: (data, input) => {
      setSecret({ name: input.name, token: data.token });
      formRef.current?.reset();
    },
  });
  const revoke = useApiMutation('tokens.revoke', { invalidates: ['tokens.list'] });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    create.mutate({ name: String(new FormData(e.currentTarget).get('name') ?? '').trim() });
  };
  return (
    <section className={styles.section} aria-labelledby="tokens-title">
      <h2 id="tokens-title" className={styles.sectionTitle}>
        Your API tokens
      </h2>
      <p className={styles.muted}>For the command line and scripts: send one as <code>Authorization: Bearer &lt;token&gt;</code>. They act with your roles.</p>
      {secret ? (
        <div className={styles.secret} role="status" aria-label="New token secret">
          <p>
            The secret of <strong>{secret.name}</strong>. Copy it now: it is shown only this once.
          </p>
          <code data-testid="token-secret">{secret.token}</code>
          <span className={styles.rowActions}>
            <Button size="sm" onClick={() => void navigator.clipboard?.writeText(secret.token)}>
              Copy
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setSecret(null)}>
              I copied it
            </Button>
          </span>
        </div>
      ) : null}
      {tokens.error ? <ErrorNote error={tokens.error} title="Your tokens could not be read" onRetry={() => tokens.refetch()} /> : null}
      {tokens.data && tokens.data.rows.length > 0 ? (
        <ul className={styles.users} aria-label="API tokens">
          {tokens.data.rows.map((t) => (
            <li key={t.id} className={styles.userLine} data-token={t.name}>
              <span className={styles.userName}>{t.name}</span>
              <span className={styles.muted}>created {ago(t.create_time, now)}</span>
              <span className={styles.muted}>{t.last_used ? `last used ${ago(t.last_used, now)}` : 'never used'}</span>
              <span className={styles.rowActions}>
                <Button size="sm" variant="danger" busy={revoke.isPending && revoke.variables?.id === t.id} onClick={() => revoke.mutate({ id: t.id })} aria-label={`Revoke token ${t.name}`}>
                  Revoke
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : tokens.data ? (
        <p className={styles.muted}>You have no API tokens.</p>
      ) : null}
      {revoke.error ? <ErrorNote error={revoke.error} title="The token could not be revoked" /> : null}
      <form ref={formRef} className={styles.inlineForm} onSubmit={submit} aria-label="Create an API token">
        <TextField label="Token name" name="name" required maxLength={100} hint="Where it will be used, e.g. “laptop CLI”." autoComplete="off" />
        <Button type="submit" variant="primary" disabled={!hydrated} busy={create.isPending}>
          Create token
        </Button>
      </form>
      {create.error ? <ErrorNote error={create.error} title="The token could not be created" /> : null}
    </section>
  );
}
