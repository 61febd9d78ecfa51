import type { Metadata } from 'next/types';
import { Suspense } from 'react';
import { NewWorkflowDesigner } from '../../../../components/designer/designer.tsx';
import { Page } from '../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'New workflow' };

export default function NewWorkflowPage() {
  return (
    <Page title="New workflow" description="Build it from the palette or type the YAML; deploy when there are no problems." needs="design">
      <Suspense>
        <NewWorkflowDesigner />
      </Suspense>
    </Page>
  );
}
