import type { Metadata } from 'next/types';
import { Suspense } from 'react';
import { CompareView } from '../../../../../components/compare/compare-view.tsx';
import { Page } from '../../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Compare versions' };

export default function CompareVersionsPage() {
  return (
    <Page title="Compare versions" description="Two versions of a model on the graph: what was added, removed, changed or moved, and their YAML side by side.">
      <Suspense>
        <CompareView />
      </Suspense>
    </Page>
  );
}
