/** Adds a user: name, first password and roles. The inputs are uncontrolled and cleared after a success. */
'use client';
import { useRef, useState, type FormEvent } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { useHydrated } from '../shell/use-hydrated.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './admin.module.css';
import { RoleCheckboxes, rolesIn } from './role-checkboxes.tsx';

export function NewUserForm() {
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [missingRole, setMissingRole] = useState(false);
  const create = useApiMutation('users.create', { invalidates: ['users.list'], onSuccess: () => formRef.current?.reset() });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const roles = rolesIn(form);
    setMissingRole(roles.length === 0);
    if (roles.length === 0) return;
    create.mutate({ name: String(form.get('name') ?? '').trim(), password: String(form.get('password') ?? ''), roles });
  };
  return (
    <form ref={formRef} className={styles.inlineForm} onSubmit={submit} aria-label="Add a user">
      <TextField label="New user name" name="name" autoComplete="off" required maxLength={64} />
      <TextField label="First password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters; they can change it later." />
      {/* none ticked: the admin chooses (a ticked default was kept by whoever ticked another role) */}
      <RoleCheckboxes legend="Roles" />
      {missingRole ? <p role="alert" className={styles.error}>Choose at least one role.</p> : null}
      <Button type="submit" variant="primary" icon="person" disabled={!hydrated} busy={create.isPending}>
        Add user
      </Button>
      {create.error ? <ErrorNote error={create.error} title="The user could not be added" /> : null}
      {create.data ? <p role="status">Added {create.data.name}.</p> : null}
    </form>
  );
}
