import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Server test files that must run alone, one after another, after everything else: they crash
 * or cut off a rig engine, load its CPU on purpose, count every container of an engine, or time
 * an alert or a search against a tight bound that a busy neighbour would blow.
 * Every other server file creates its own uniquely named containers, images and ports, so it can
 * share the rig with a neighbour.
 */
const serverExclusive = [
  'packages/server/src/modules/monitor/monitor-faults.engines.test.ts',
  'packages/server/src/modules/monitor/monitor.engines.test.ts',
  'packages/server/src/modules/monitor/live-deltas.engines.test.ts',
  'packages/server/src/modules/alerts/alerts.engines.test.ts',
  'packages/server/src/modules/alerts/alerts.kinds.engines.test.ts',
  'packages/server/src/modules/alerts/alerts.hosts.engines.test.ts',
  'packages/server/src/modules/alerts/alerts.matrix.engines.test.ts',
  'packages/server/src/modules/notifications/notifications.engines.test.ts',
  'packages/server/src/modules/events/events.search.test.ts',
  'packages/server/src/docker/engine-limits.test.ts',
  // Compares Prometheus' running count per host with the engine's own, whole engines.
  'packages/server/src/modules/metrics-export/metrics-export.engines.test.ts',
  // Image prunes take every dangling image of the engine, a neighbour's too.
  'packages/server/src/modules/images/images.engines.test.ts',
  'packages/server/src/modules/images/images-agent.engines.test.ts',
];

const serverTimeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

// One runner for contracts, server and web unit/integration tests.
// `source` makes workspace packages resolve to their TypeScript sources.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    // Vitest's default is one worker per core less one, a single worker on a two-core machine;
    // most server files spend their time waiting on engines, so two of them at once overlap well.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'agent', include: ['packages/agent/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          // Added to vitest's own excludes, which an `exclude` of its own would replace.
          exclude: [...configDefaults.exclude, ...serverExclusive],
          ...serverTimeouts,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-exclusive',
          include: serverExclusive,
          ...serverTimeouts,
          fileParallelism: false,
          // Groups run in ascending order, so these start once every other file has finished.
          sequence: { groupOrder: 1 },
        },
      },
      'packages/*/vitest.config.ts',
    ],
  },
});
