import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { cnReady } from '@/lib/cn';
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
// After the first paint: tailwind-merge, for the screens after this one (lib/cn.ts).
requestAnimationFrame(() => setTimeout(() => void cnReady()));
