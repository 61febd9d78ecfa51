/** The users section: every user with their roles and state, and the form that adds one. */
'use client';
import { useMe } from '../data/auth.ts';
import { useApiQuery } from '../data/use-api.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import styles from './admin.module.css';
import { NewUserForm } from './new-user-form.tsx';
import { UserRow } from './user-row.tsx';

export function UsersPanel() {
  const me = useMe();
  const users = useApiQuery('users.list', {});
  return (
    <section className={styles.section} aria-labelledby="users-title">
      <h2 id="users-title" className={styles.sectionTitle}>
        Users
      </h2>
      {users.error ? <ErrorNote error={users.error} title="The users could not be read" onRetry={() => users.refetch()} /> : null}
      {users.data ? (
        <ul className={styles.users} aria-label="Users">
          {users.data.rows.map((user) => (
            <UserRow key={user.id} user={user} isMe={user.id === me.caller?.userId} />
          ))}
        </ul>
      ) : users.isPending ? (
        <Spinner label="Loading the users" />
      ) : null}
      <NewUserForm />
    </section>
  );
}
