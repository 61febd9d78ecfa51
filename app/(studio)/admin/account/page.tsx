import type { Metadata } from 'next/types';
import { ChangePasswordForm } from '../../../../components/admin/change-password-form.tsx';
import { TokensPanel } from '../../../../components/admin/tokens-panel.tsx';
import { Page } from '../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Your account' };

export default function AccountPage() {
  return (
    <Page title="Your account" description="Your password and your API tokens." needs="self">
      <ChangePasswordForm />
      <TokensPanel />
    </Page>
  );
}
