import type { Metadata } from 'next/types';
import { Page } from '../../../../components/shell/page.tsx';
import { EmptyState } from '../../../../components/ui/empty-state.tsx';

export const metadata: Metadata = { title: 'Users' };

export default function UsersPage() {
  return (
    <Page title="Users" description="People who may sign in, their roles and API tokens, and the audit log." needs="admin">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with
          user management (users, roles, API tokens, audit log). */}
      <EmptyState icon="users" title="Users will be managed here">
        Add people, give them roles, reset passwords, revoke API tokens and read the audit log.
      </EmptyState>
    </Page>
  );
}
