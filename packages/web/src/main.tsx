// First: the boot requests leave before anything else (app/boot.ts).
import './app/boot';
import { preloadScreen } from './app/preload-screen';
import { reloadOnStaleChunks } from './app/reload-on-stale-chunks';
import { registerServiceWorker } from './app/service-worker';
import './index.css';

reloadOnStaleChunks();
registerServiceWorker();
preloadScreen(window.location.pathname);
// The first screen is already in the HTML (packages/web/prerender.ts): it paints, then the
// app runs and renders the same screen over it (app/start.tsx). Signed-in pages have already
// fetched the app beside the entry (modulepreload in index.html); /login has not: that
// delayed its paint by ~50 ms in bench/first-paint.
requestAnimationFrame(() =>
  setTimeout(() => {
    import('./app/start').catch((error: unknown) => {
      console.error('Berth could not load', error); // a stale chunk reloads the page instead
    });
  }),
);
