import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { checkClasses } from '@/lib/cn';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/** The app itself, started by main.tsx once the prerendered first screen has painted. */
const root = document.getElementById('root');
if (root === null) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
if (import.meta.env.DEV) {
  // Conflicting Tailwind classes show in the console (lib/cn.ts); not part of a build.
  import('@/lib/cn-conflicts').then(
    ({ warnOnConflict }) => checkClasses(warnOnConflict),
    (error: unknown) => console.error('The class check could not load', error),
  );
}
