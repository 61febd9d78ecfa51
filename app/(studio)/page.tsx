import type { Metadata } from 'next/types';
import { Page } from '../../components/shell/page.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { StateLegend } from '../../components/ui/state-legend.tsx';

export const metadata: Metadata = { title: 'Overview' };

export default function OverviewPage() {
  return (
    <Page title="Overview" description="What is running, what waits for you, and what is failing.">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with runs by
          state (last 24 h), tasks waiting for me, failing schedules and the health badge. */}
      <EmptyState icon="home" title="The overview will be shown here">
        Runs by state over the last 24 hours, the tasks waiting for you, failing schedules and the server&apos;s health.
      </EmptyState>
      <StateLegend />
    </Page>
  );
}
