import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useClearCacheOnConnectionChange } from '../lib/auth';
import { createQueryClient } from '../lib/query-client';

function ConnectionCacheGuard() {
  useClearCacheOnConnectionChange();
  return null;
}

/** Server state for the whole app; `queryClient` lets tests bring a fresh one. */
export function AppProvider({
  children,
  queryClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ConnectionCacheGuard />
      {children}
    </QueryClientProvider>
  );
}
