import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser). Each test gets its own
 * Berth server on a fresh database (see fixtures/test.ts), so tests never share state.
 * They do share the rig's engines: these files stop an engine or compare a count over a whole
 * engine, which a neighbour adding containers would upset, so they run alone, after the rest.
 * The event log's test reads whole engines' logs too: a neighbour's burst of events (a batch
 * restart logs twenty) pushed its rows off the first page, and a neighbour's kill added an
 * error to its severity filter.
 */
const engineWide = [
  'host-offline.spec.ts',
  'dashboard.spec.ts',
  'host-panels.spec.ts',
  'event-log.spec.ts',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './.artifacts/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two files at a time: a test mostly waits on its server, engines and timers, so two overlap
  // well on two cores.
  workers: 2,
  projects: [
    { name: 'shared-engines', testIgnore: engineWide },
    {
      name: 'engine-wide',
      testMatch: engineWide,
      workers: 1,
      dependencies: ['shared-engines'],
    },
  ],
  // One more try for a test that fails once: on a loaded 2-core machine keyboard drags and
  // lazily loaded tabs have flaked; a test that fails twice still fails the run.
  retries: 1,
  reporter: 'list',
  use: {
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
