import type { Metadata } from 'next/types';
import { Page } from '../../../components/shell/page.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

export const metadata: Metadata = { title: 'Health' };

export default function HealthPage() {
  return (
    <Page title="Health" description="Lanes, queues, the store writer, deliveries and timers, live.">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with
          the live health view (lanes, queues, store writer, deliveries, timers). */}
      <EmptyState icon="heart" title="Health figures will be shown here">
        Lane queues, the store writer, deliveries and timer loops of each server instance, updated every few seconds.
      </EmptyState>
    </Page>
  );
}
