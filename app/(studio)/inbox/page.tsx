import type { Metadata } from 'next/types';
import { InboxView } from '../../../components/inbox/inbox-view.tsx';
import { Page } from '../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Inbox' };

export default function InboxPage() {
  return (
    <Page title="Inbox" description="Tasks waiting for your decision: yours, your groups', and all you may answer." needs="operate">
      <InboxView />
    </Page>
  );
}
