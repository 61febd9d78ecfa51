import type { Metadata } from 'next/types';
import { Suspense } from 'react';
import { ModelDesigner } from '../../../../components/designer/designer.tsx';
import { Page } from '../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Designer' };

export default function ModelDesignerPage() {
  return (
    <Page title="Designer" description="The workflow as a graph and as YAML; edit either, validate, deploy and run.">
      <Suspense>
        <ModelDesigner />
      </Suspense>
    </Page>
  );
}
