import type { Metadata } from 'next/types';
import { RunView } from '../../../../components/runs/run-view.tsx';
import { Page } from '../../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Run' };

export default function RunPage() {
  return (
    <Page title="Run" description="The run's live graph, timeline, variables and errors.">
      <RunView />
    </Page>
  );
}
