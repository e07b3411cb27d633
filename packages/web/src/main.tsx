// First: the boot requests leave before anything else (app/boot.ts).
import './app/boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { reloadOnStaleChunks } from './app/reload-on-stale-chunks';
import { AppRouter } from './app/router';
import { cnReady } from './lib/cn';
import './index.css';

reloadOnStaleChunks();
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
