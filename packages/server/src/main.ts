import { ConfigError, loadConfig } from './config/config.js';
import { checkDataDir, DataDirError } from './platform/data-dir.js';
import { installGracefulStop } from './platform/graceful-stop.js';
import { installLazyEngineDeps } from './platform/lazy-engine-deps.js';
import {
  consoleGuardLogger,
  installProcessGuards,
  type GuardLogger,
} from './platform/process-guards.js';

// Installed before anything can fail; the app logger takes over once it exists.
let guardLogger: GuardLogger = consoleGuardLogger;
installProcessGuards({ logger: () => guardLogger });
// Before the app (and dockerode with it) is loaded, hence the dynamic import below.
installLazyEngineDeps();

/** Starts Berth from the environment and stops it cleanly on SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  checkDataDir(config.dataDir);
  const { buildApp } = await import('./app.js');
  const app = await buildApp(config);
  guardLogger = app.log;
  installGracefulStop({ stop: () => app.close(), logger: app.log });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  // Configuration and data directory problems are the operator's to fix: one clear line,
  // no stack trace.
  if (err instanceof ConfigError || err instanceof DataDirError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
