import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { ErrorBoundary } from '@/components/error-screen';
import { createQueryClient } from '@/lib/query-client';
import { warmUpQueries } from '@/lib/queries';

/** App-wide providers: error boundary, query cache, toasts (4000 ms, at most 3 visible). */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    void warmUpQueries(client, window.location.pathname);
    return client;
  });
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster
          theme="dark"
          position="bottom-right"
          duration={4000}
          visibleToasts={3}
          richColors
          closeButton
        />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
