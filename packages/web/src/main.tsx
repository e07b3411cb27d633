// First: the boot requests leave before anything else (app/boot.ts).
import './app/boot';
import { reloadOnStaleChunks } from './app/reload-on-stale-chunks';
import './index.css';

reloadOnStaleChunks();
// The first screen is already in the HTML (packages/web/prerender.ts): it paints, then the
// app loads and renders the same screen over it (app/start.tsx). Fetching the app beside the
// first paint instead (modulepreload) delayed that paint by ~50 ms in bench/first-paint.
requestAnimationFrame(() =>
  setTimeout(() => {
    import('./app/start').catch((error: unknown) => {
      console.error('Berth could not load', error); // a stale chunk reloads the page instead
    });
  }),
);
