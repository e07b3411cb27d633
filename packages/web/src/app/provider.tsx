import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ErrorBoundary } from '@/components/error-screen';
import { createQueryClient } from '@/lib/query-client';
import { startSessionQuery } from '@/lib/preload';

// Toasts only follow actions on later screens: sonner is mounted (and loaded) after the first
// paint, not competing with it.
const Toaster = lazy(async () => ({ default: (await import('sonner')).Toaster }));

/** App-wide providers: error boundary, query cache, toasts (4000 ms, at most 3 visible). */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    startSessionQuery(client);
    return client;
  });
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTimeout(() => setPainted(true)));
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        {children}
        {painted && (
          <Suspense fallback={null}>
            <Toaster
              theme="dark"
              position="bottom-right"
              duration={4000}
              visibleToasts={3}
              richColors
              closeButton
            />
          </Suspense>
        )}
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
