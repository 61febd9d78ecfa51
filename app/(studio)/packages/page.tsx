import type { Metadata } from 'next/types';
import { PackagesTable } from '../../../components/packages/packages-table.tsx';
import { Page } from '../../../components/shell/page.tsx';

export const metadata: Metadata = { title: 'Packages' };

export default function PackagesPage() {
  return (
    <Page title="Packages" description="What an act can use: the engine's own packages and external ones, whose acts remote workers run; designers declare external packages here.">
      <PackagesTable />
    </Page>
  );
}
