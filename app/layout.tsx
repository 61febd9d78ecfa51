/** The root of every page: theme applied before the first paint, global styles, data providers. */
import type { Metadata, Viewport } from 'next/types';
import type { ReactNode } from 'react';
import { DataProviders } from '../components/data/providers.tsx';
import { THEME_SCRIPT } from '../components/shell/theme-script.ts';
import './globals.css';

export const metadata: Metadata = {
  title: { template: '%s · acts studio', default: 'acts studio' },
  description: 'Design, run and watch durable workflows.',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <DataProviders>{children}</DataProviders>
      </body>
    </html>
  );
}
