import type { Metadata } from 'next/types';
import { SetupForm } from '../../../components/shell/setup-form.tsx';

export const metadata: Metadata = { title: 'Set up' };

export default function SetupPage() {
  return <SetupForm />;
}
