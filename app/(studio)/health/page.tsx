import type { Metadata } from 'next/types';
import { HealthView } from '../../../components/health/health-view.tsx';
import { Page } from '../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Health' };

export default function HealthPage() {
  return (
    <Page title="Health" description="Lanes, queues, the store writer, deliveries, stuck processes and timers of each server instance, live.">
      <HealthView />
    </Page>
  );
}
