import type { Metadata } from 'next/types';
import { DraftsList } from '../../../components/designer/drafts-list.tsx';
import { ModelsActions, ModelsList } from '../../../components/designer/models-list.tsx';
import { Page } from '../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Models' };

export default function ModelsPage() {
  return (
    <Page title="Models" description="Workflows with their latest version, last deploy and runs." actions={<ModelsActions />}>
      <DraftsList />
      <ModelsList />
    </Page>
  );
}
