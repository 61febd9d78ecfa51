import type { Metadata } from 'next/types';
import { Page } from '../../../components/shell/page.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

export const metadata: Metadata = { title: 'Inbox' };

export default function InboxPage() {
  return (
    <Page title="Inbox" description="Tasks waiting for your decision, newest first." needs="operate">
      {/* PLACEHOLDER (studio foundation): the page builder replaces this section with
          the operator inbox (task list + form beside it, keyboard j/k/Enter/a/r/b). */}
      <EmptyState icon="inbox" title="Your tasks will be listed here">
        Interrupt tasks you may answer, with the workflow, the step and how long they have waited; a task opens its form beside the list.
      </EmptyState>
    </Page>
  );
}
