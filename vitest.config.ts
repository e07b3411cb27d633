import { defineConfig } from 'vitest/config';

// One runner for contracts, server and web unit/integration tests.
// `source` makes workspace packages resolve to their TypeScript sources.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files share the rig's engines and one of them crashes an engine on purpose.
          fileParallelism: false,
        },
      },
      'packages/*/vitest.config.ts',
    ],
  },
});
