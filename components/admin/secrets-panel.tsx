/**
 * The project's secrets, for admins: each by name with who changed it when — never a value —, a
 * form that adds or replaces one (the value in a password field, cleared once saved), and delete
 * after a confirmation. State: the name a row's Replace put into the form, the row whose delete
 * waits for its confirmation, and each mutation.
 */
'use client';
import { useRef, useState, type FormEvent } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { useHydrated } from '../shell/use-hydrated.ts';
import { useNow } from '../inbox/use-now.ts';
import { ago } from '../inbox/waited.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { TextField } from '../ui/text-field.tsx';
import { MAX_SECRET_BYTES } from '../../vocab/secrets.ts';
import styles from './admin.module.css';

export function SecretsPanel() {
  const hydrated = useHydrated();
  const now = useNow();
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const secrets = useApiQuery('secrets.list', {});
  const set = useApiMutation('secrets.set', { invalidates: ['secrets.list'], onSuccess: () => formRef.current?.reset() });
  const remove = useApiMutation('secrets.delete', { invalidates: ['secrets.list'], onSuccess: () => setConfirming(null) });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    set.mutate({ name: String(form.get('name') ?? '').trim(), value: String(form.get('value') ?? '') });
  };
  const replace = (name: string) => {
    if (nameRef.current) nameRef.current.value = name;
    valueRef.current?.focus();
  };
  return (
    <section className={styles.section} aria-labelledby="secrets-title">
      <h2 id="secrets-title" className={styles.sectionTitle}>
        Secrets
      </h2>
      <p className={styles.muted}>
        Workflows read a secret in act params as <code>{'{{ secrets.NAME }}'}</code>; only HTTP and shell acts get its value, everything else shows <code>***</code>. Values are
        encrypted on the server and never shown again.
      </p>
      {secrets.data && !secrets.data.enabled ? (
        <p role="status" className={styles.error}>
          This server has no ACTS_SECRETS_KEY: secrets cannot be stored until it is started with one (see docs/server.md).
        </p>
      ) : null}
      {secrets.error ? <ErrorNote error={secrets.error} title="The secrets could not be read" onRetry={() => secrets.refetch()} /> : null}
      {secrets.data && secrets.data.rows.length > 0 ? (
        <ul className={styles.users} aria-label="Secrets">
          {secrets.data.rows.map((s) => (
            <li key={s.name} className={styles.userLine} data-secret={s.name}>
              <code className={styles.userName}>{s.name}</code>
              <span className={styles.muted}>
                set by {s.update_by} {ago(s.update_time, now)}
              </span>
              <span className={styles.rowActions}>
                {confirming === s.name ? (
                  <>
                    <Button size="sm" variant="danger" busy={remove.isPending} onClick={() => remove.mutate({ name: s.name })} aria-label={`Confirm deleting secret ${s.name}`}>
                      Delete {s.name}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                      Keep
                    </Button>
                  </>
                ) : (
                  <>
                    <Button size="sm" onClick={() => replace(s.name)} aria-label={`Replace secret ${s.name}`}>
                      Replace
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => setConfirming(s.name)} aria-label={`Delete secret ${s.name}`}>
                      Delete
                    </Button>
                  </>
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : secrets.data ? (
        <p className={styles.muted}>No secrets are stored.</p>
      ) : secrets.isPending ? (
        <Spinner label="Loading the secrets" />
      ) : null}
      {remove.error ? <ErrorNote error={remove.error} title="The secret could not be deleted" /> : null}
      <form ref={formRef} className={styles.inlineForm} onSubmit={submit} aria-label="Add or replace a secret">
        <TextField ref={nameRef} label="Secret name" name="name" required maxLength={64} pattern="[A-Z][A-Z0-9_]*" hint="Upper-case letters, digits and _, e.g. API_TOKEN." autoComplete="off" />
        <TextField ref={valueRef} label="Value" name="value" type="password" required maxLength={MAX_SECRET_BYTES} autoComplete="new-password" hint="Saving an existing name replaces its value." />
        <Button type="submit" variant="primary" disabled={!hydrated} busy={set.isPending}>
          Save secret
        </Button>
      </form>
      {set.error ? <ErrorNote error={set.error} title="The secret could not be saved" /> : null}
      {set.data ? <p role="status">{set.data.created ? `Added ${set.data.name}.` : `Replaced the value of ${set.data.name}.`}</p> : null}
    </section>
  );
}
