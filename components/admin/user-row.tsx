/**
 * One user with their actions: edit roles, set the e-mail address inbox notifications go to, reset
 * the password, disable/enable. State: which editor is open (none → roles | email | password → none
 * on save or cancel) and each action's mutation.
 */
'use client';
import { useState, type FormEvent } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './admin.module.css';
import { RoleCheckboxes, rolesIn } from './role-checkboxes.tsx';

type User = ApiOutput<'users.list'>['rows'][number];
type Editor = 'none' | 'roles' | 'email' | 'password';

export function UserRow({ user, isMe }: { user: User; isMe: boolean }) {
  const [editor, setEditor] = useState<Editor>('none');
  const [saved, setSaved] = useState<string | null>(null);
  const done = (what: string) => () => {
    setEditor('none');
    setSaved(what);
  };
  const setRoles = useApiMutation('users.setRoles', { invalidates: ['users.list'], onSuccess: done('Roles saved.') });
  const setPassword = useApiMutation('users.setPassword', { onSuccess: done('Password reset; their sessions ended.') });
  const setDisabled = useApiMutation('users.setDisabled', { invalidates: ['users.list'], onSuccess: done('Saved.') });
  const setEmail = useApiMutation('users.setEmail', { invalidates: ['users.list'], onSuccess: done('E-mail address saved.') });
  const error = setRoles.error ?? setEmail.error ?? setPassword.error ?? setDisabled.error;

  const saveRoles = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setRoles.mutate({ id: user.id, roles: rolesIn(new FormData(e.currentTarget)) });
  };
  const saveEmail = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '').trim();
    setEmail.mutate({ id: user.id, email: email === '' ? null : email });
  };
  const savePassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setPassword.mutate({ id: user.id, password: String(new FormData(e.currentTarget).get('password') ?? '') });
  };
  const open = (next: Editor) => {
    setSaved(null);
    setEditor(editor === next ? 'none' : next);
  };

  return (
    <li className={styles.user} data-user={user.name}>
      <div className={styles.userLine}>
        <span className={styles.userName}>
          {user.name} {isMe ? <span className={styles.muted}>(you)</span> : null}
          <span className={styles.email} title={user.email ?? undefined}>
            {user.email ?? 'no e-mail'}
          </span>
        </span>
        <span className={styles.muted}>{user.roles.join(', ')}</span>
        <span className={user.disabled ? styles.disabled : styles.muted}>{user.disabled ? 'Disabled' : 'Active'}</span>
        <span className={styles.rowActions}>
          <Button size="sm" variant="ghost" aria-expanded={editor === 'roles'} onClick={() => open('roles')} aria-label={`Edit roles of ${user.name}`}>
            Roles
          </Button>
          <Button size="sm" variant="ghost" aria-expanded={editor === 'email'} onClick={() => open('email')} aria-label={`Edit e-mail address of ${user.name}`}>
            E-mail
          </Button>
          <Button size="sm" variant="ghost" aria-expanded={editor === 'password'} onClick={() => open('password')} aria-label={`Reset password of ${user.name}`}>
            Reset password
          </Button>
          <Button
            size="sm"
            variant={user.disabled ? 'secondary' : 'danger'}
            busy={setDisabled.isPending}
            disabled={isMe && !user.disabled}
            title={isMe && !user.disabled ? 'You cannot disable yourself' : undefined}
            onClick={() => setDisabled.mutate({ id: user.id, disabled: !user.disabled })}
            aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.name}`}
          >
            {user.disabled ? 'Enable' : 'Disable'}
          </Button>
        </span>
      </div>
      {editor === 'roles' ? (
        <form className={styles.editor} onSubmit={saveRoles} aria-label={`Roles of ${user.name}`}>
          <RoleCheckboxes legend={`Roles of ${user.name}`} initial={user.roles} />
          <Button type="submit" size="sm" variant="primary" busy={setRoles.isPending}>
            Save roles
          </Button>
        </form>
      ) : null}
      {editor === 'email' ? (
        <form className={styles.editor} onSubmit={saveEmail} aria-label={`E-mail address of ${user.name}`}>
          <TextField label={`E-mail address of ${user.name}`} hint="Inbox notifications go here; empty: none." name="email" type="email" defaultValue={user.email ?? ''} maxLength={254} autoFocus />
          <Button type="submit" size="sm" variant="primary" busy={setEmail.isPending}>
            Save address
          </Button>
        </form>
      ) : null}
      {editor === 'password' ? (
        <form className={styles.editor} onSubmit={savePassword} aria-label={`New password for ${user.name}`}>
          <TextField label={`New password for ${user.name}`} name="password" type="password" autoComplete="new-password" required minLength={8} autoFocus />
          <Button type="submit" size="sm" variant="primary" busy={setPassword.isPending}>
            Set password
          </Button>
        </form>
      ) : null}
      {saved ? <p role="status" className={styles.muted}>{saved}</p> : null}
      {error ? <ErrorNote error={error} title={`The change to ${user.name} was refused`} /> : null}
    </li>
  );
}
