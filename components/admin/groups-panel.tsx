/**
 * The groups section (admins): each group with its description and members — a member is removed
 * with its button, added by choosing a user —, a group removed with its button, and the form that
 * adds one. Interrupt acts are offered to groups with `params.candidate_groups`. State: each
 * mutation's status; the lists come from `groups.list` and `users.list`.
 */
'use client';
import { useRef, useState, type FormEvent } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { TextField } from '../ui/text-field.tsx';
import { GROUP_NAME_RULE } from '../../vocab/groups.ts';
import styles from './admin.module.css';

type Group = ApiOutput<'groups.list'>['rows'][number];
const REFRESH = ['groups.list', 'users.list'] as const;

function GroupRow({ group, users }: { group: Group; users: string[] }) {
  const [adding, setAdding] = useState('');
  const add = useApiMutation('groups.addMember', { invalidates: [...REFRESH], onSuccess: () => setAdding('') });
  const remove = useApiMutation('groups.removeMember', { invalidates: [...REFRESH] });
  const drop = useApiMutation('groups.remove', { invalidates: [...REFRESH] });
  const error = add.error ?? remove.error ?? drop.error;
  const others = users.filter((u) => !group.members.includes(u));
  return (
    <li className={styles.user} data-group={group.name}>
      <div className={styles.userLine}>
        <span className={styles.userName}>{group.name}</span>
        <span className={styles.muted}>{group.description}</span>
        <span className={styles.rowActions}>
          <Button size="sm" variant="danger" busy={drop.isPending} onClick={() => drop.mutate({ name: group.name })} aria-label={`Remove group ${group.name}`}>
            Remove group
          </Button>
        </span>
      </div>
      <ul className={styles.members} aria-label={`Members of ${group.name}`}>
        {group.members.length === 0 ? <li className={styles.muted}>No members yet.</li> : null}
        {group.members.map((m) => (
          <li key={m}>
            {m}{' '}
            <Button size="sm" variant="ghost" busy={remove.isPending && remove.variables?.user === m} onClick={() => remove.mutate({ name: group.name, user: m })} aria-label={`Remove ${m} from ${group.name}`}>
              ×
            </Button>
          </li>
        ))}
      </ul>
      <div className={styles.inlineForm}>
        <label className={styles.muted} htmlFor={`add-${group.name}`}>
          Add a member
        </label>
        <select id={`add-${group.name}`} className={styles.input} value={adding} onChange={(e) => setAdding(e.target.value)}>
          <option value="">Choose a user…</option>
          {others.map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
        <Button size="sm" disabled={adding === ''} busy={add.isPending} onClick={() => add.mutate({ name: group.name, user: adding })}>
          Add
        </Button>
      </div>
      {error ? <ErrorNote error={error} title={`The group ${group.name} was not changed`} /> : null}
    </li>
  );
}

export function GroupsPanel() {
  const groups = useApiQuery('groups.list', {});
  const users = useApiQuery('users.list', {});
  const formRef = useRef<HTMLFormElement>(null);
  const create = useApiMutation('groups.create', { invalidates: ['groups.list'], onSuccess: () => formRef.current?.reset() });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    create.mutate({ name: String(form.get('name') ?? '').trim(), description: String(form.get('description') ?? '').trim() });
  };
  const names = (users.data?.rows ?? []).filter((u) => !u.disabled).map((u) => u.name);
  return (
    <section className={styles.section} aria-labelledby="groups-title">
      <h2 id="groups-title" className={styles.sectionTitle}>
        Groups
      </h2>
      <p className={styles.muted}>Teams an approval may be offered to: an interrupt act names them in candidate_groups, and their members see it under My groups&apos;.</p>
      {groups.error ? <ErrorNote error={groups.error} title="The groups could not be read" onRetry={() => groups.refetch()} /> : null}
      {groups.data ? (
        <ul className={styles.users} aria-label="Groups">
          {groups.data.rows.map((g) => (
            <GroupRow key={g.name} group={g} users={names} />
          ))}
        </ul>
      ) : groups.isPending ? (
        <Spinner label="Loading the groups" />
      ) : null}
      <form ref={formRef} className={styles.inlineForm} onSubmit={submit} aria-label="Add a group">
        <TextField label="New group name" name="name" autoComplete="off" required maxLength={64} hint={`${GROUP_NAME_RULE[0].toUpperCase()}${GROUP_NAME_RULE.slice(1)}.`} />
        <TextField label="Description" name="description" autoComplete="off" maxLength={200} />
        <Button type="submit" variant="primary" icon="users" busy={create.isPending}>
          Add group
        </Button>
        {create.error ? <ErrorNote error={create.error} title="The group could not be added" /> : null}
      </form>
    </section>
  );
}
