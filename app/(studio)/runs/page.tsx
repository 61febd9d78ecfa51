import type { Metadata } from 'next/types';
import { Page } from '../../../components/shell/page.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

export const metadata: Metadata = { title: 'Runs' };

export default function RunsPage() {
  return (
    <Page title="Runs" description="Every process with its state, model and start time, updated live.">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with
          the live process list with filters (model, state, started). */}
      <EmptyState icon="activity" title="Runs will be listed here">
        Processes filtered by model, state and start time; a run opens its live graph, timeline and variables.
      </EmptyState>
    </Page>
  );
}
