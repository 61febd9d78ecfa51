import type { Metadata } from 'next/types';
import { SecretsPanel } from '../../../../components/admin/secrets-panel.tsx';
import { Page } from '../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Secrets' };

export default function SecretsPage() {
  return (
    <Page title="Secrets" description="Values workflows pass on (API keys, tokens), stored encrypted; names only are shown." needs="admin">
      <SecretsPanel />
    </Page>
  );
}
