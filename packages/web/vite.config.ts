import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './precompress';
import { prerender } from './prerender';

const backend = process.env.BERTH_DEV_BACKEND ?? 'http://127.0.0.1:8080';

// `source` resolves @berth/contracts to its TypeScript sources, so no contracts build is needed.
export default defineConfig({
  plugins: [react(), tailwindcss(), prerender('dist'), precompress('dist')],
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
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
});
