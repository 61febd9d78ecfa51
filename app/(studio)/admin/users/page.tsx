import type { Metadata } from 'next/types';
import { AuditLog } from '../../../../components/admin/audit-log.tsx';
import { GroupsPanel } from '../../../../components/admin/groups-panel.tsx';
import { TokensPanel } from '../../../../components/admin/tokens-panel.tsx';
import { UsersPanel } from '../../../../components/admin/users-panel.tsx';
import { Page } from '../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Users' };

export default function UsersPage() {
  return (
    <Page title="Users" description="People who may sign in, their roles, the groups tasks are offered to, your API tokens, and the audit log." needs="admin">
      <UsersPanel />
      <GroupsPanel />
      <TokensPanel />
      <AuditLog />
    </Page>
  );
}
