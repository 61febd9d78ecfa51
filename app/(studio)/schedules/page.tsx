import type { Metadata } from 'next/types';
import { SchedulesTable } from '../../../components/schedules/schedules-table.tsx';
import { Page } from '../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Schedules' };

export default function SchedulesPage() {
  return (
    <Page title="Schedules" description="Triggers with their cron, timezone and next and last run; designers enable them, operators fire them now.">
      <SchedulesTable />
    </Page>
  );
}
