import type { Metadata } from 'next/types';
import Link from 'next/link';
import { AuthCard } from '../components/shell/auth-card.tsx';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <AuthCard title="This page does not exist" intro="The link may be old, or the run or model it pointed to was removed.">
      <Link href="/">Go to the overview</Link>
    </AuthCard>
  );
}
