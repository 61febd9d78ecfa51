/** The data providers every page needs: one React Query client per browser tab; and the history-step hold, installed as this module loads. */
'use client';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { installHistorySteps } from '../shell/history-steps.ts';
import { createQueryClient } from './query-client.ts';

// before the App Router mounts and listens to the history itself
installHistorySteps();

export function DataProviders({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
