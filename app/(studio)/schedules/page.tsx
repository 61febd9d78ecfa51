import type { Metadata } from 'next/types';
import { Page } from '../../../components/shell/page.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

export const metadata: Metadata = { title: 'Schedules' };

export default function SchedulesPage() {
  return (
    <Page title="Schedules" description="Triggers with their cron, timezone and next and last run.">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with
          the triggers table (cron, timezone, next/last run, enable, fire now). */}
      <EmptyState icon="calendar" title="Schedules will be listed here">
        Every trigger with its cron expression and timezone, when it runs next and ran last; designers enable, disable and fire them.
      </EmptyState>
    </Page>
  );
}
