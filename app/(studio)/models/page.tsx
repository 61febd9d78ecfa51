import type { Metadata } from 'next/types';
import { Page } from '../../../components/shell/page.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

export const metadata: Metadata = { title: 'Models' };

export default function ModelsPage() {
  return (
    <Page title="Models" description="Workflows with their latest version, last deploy and runs.">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with
          the models list (latest version, last deploy, run counts, "New workflow"). */}
      <EmptyState icon="workflow" title="Models will be listed here">
        Each deployed workflow with its versions, last deploy and run counts, and a "New workflow" button for designers.
      </EmptyState>
    </Page>
  );
}
