import type { Metadata } from 'next/types';
import { Overview } from '../../components/overview/overview.tsx';
import { Page } from '../../components/shell/page.tsx';
import { StateLegend } from '../../components/ui/state-legend.tsx';

export const metadata: Metadata = { title: 'Overview' };

export default function OverviewPage() {
  return (
    <Page title="Overview" description="What is running, what waits for you, and what is failing.">
      <Overview />
      <StateLegend />
    </Page>
  );
}
