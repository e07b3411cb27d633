import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './precompress';
import { prerender } from './prerender';
import { themeScript } from './theme-script';
import { serviceWorker } from './service-worker-plugin';

const backend = process.env.BERTH_DEV_BACKEND ?? 'http://127.0.0.1:8080';

/**
 * Fewer, larger chunks for the screens after the first: the libraries every screen uses in
 * one file, the app's shared components and helpers in another. Left to the default split,
 * a signed-in dashboard load asked for 55 files over six connections in three waves, and
 * spent ~2 ms of main thread on each request (bench/dashboard: first render 3.1 -> 2.6 s
 * median, 290 -> 239 KB brotli, 11 files). Kept out: what only one screen draws with (charts,
 * grid, drag and drop, tables), and what the entry itself imports (the boot reads and the
 * session check), so /login still paints before any of it loads.
 */
const ONE_SCREEN_LIBRARIES =
  /node_modules\/(uplot|react-grid-layout|react-resizable|react-draggable|@dnd-kit|@tanstack\/(table-core|react-table|react-virtual|virtual-core))\//;
const ENTRY_MODULES =
  /queryOptions\.js|src\/lib\/(api-client|schema-check|session|preload|last-reached)\.ts/;
const ONE_SCREEN_COMPONENTS =
  /src\/components\/(sortable-list|live-chart|stable-row-model|data-table(-row)?)\.tsx?/;
const groups = [
  {
    name: 'vendor',
    priority: 2,
    test: (id: string) =>
      id.includes('/node_modules/') && !ONE_SCREEN_LIBRARIES.test(id) && !ENTRY_MODULES.test(id),
  },
  {
    name: 'common',
    priority: 1,
    test: (id: string) =>
      /packages\/(web\/src\/(components|lib|hooks)|contracts)\//.test(id) &&
      !ENTRY_MODULES.test(id) &&
      !ONE_SCREEN_COMPONENTS.test(id),
  },
];

// `source` resolves @berth/contracts to its TypeScript sources, so no contracts build is needed.
export default defineConfig({
  plugins: [react(), tailwindcss(), themeScript(), prerender(), serviceWorker(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': backend,
      '/ws': { target: backend, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      output: { codeSplitting: { includeDependenciesRecursively: false, groups } },
    },
  },
});
