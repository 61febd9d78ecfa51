import type { Metadata } from 'next/types';
import { Suspense } from 'react';
import { RunsList } from '../../../components/runs/runs-list.tsx';
import { Page } from '../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Runs' };

export default function RunsPage() {
  return (
    <Page title="Runs" description="Every process with its state, model and start time, updated live.">
      {/* the list reads its filters from the URL (useSearchParams) */}
      <Suspense>
        <RunsList />
      </Suspense>
    </Page>
  );
}
