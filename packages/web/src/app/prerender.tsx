import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { LoginPage } from '@/features/auth/login';
import { SessionSkeleton } from './protected-route';

/**
 * The first screens as HTML, written into the built pages at build time (prerender.ts):
 * /login paints its form and every other route the shell's skeleton as soon as the HTML and
 * the stylesheet arrive, before any script runs or request answers. The app then renders the
 * same markup over them.
 */
export function prerenderedPages(): Record<string, string> {
  return {
    'index.html': renderToStaticMarkup(<SessionSkeleton />),
    'login.html': renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <LoginPage prerendered />
      </QueryClientProvider>,
    ),
  };
}
