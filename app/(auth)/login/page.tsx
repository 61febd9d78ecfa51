import type { Metadata } from 'next/types';
import { LoginForm } from '../../../components/shell/login-form.tsx';

export const metadata: Metadata = { title: 'Sign in' };

export default function LoginPage() {
  return <LoginForm />;
}
