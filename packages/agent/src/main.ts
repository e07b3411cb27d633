#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { readAgentConfig } from './config.js';
import { agentSecret } from './enroll.js';
import { readSecret } from './secret-file.js';
import { logLine } from './log.js';
import { stayConnected } from './run.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/**
 * The agent process: enrolls once, then stays connected to Berth and serves its engine
 * requests until SIGTERM or SIGINT (exit 0), or until Berth refuses its secret (exit 1).
 */
async function main(): Promise<number> {
  const config = readAgentConfig(process.env);
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  process.once('SIGINT', () => stop.abort());
  // A throttled enrollment waits and tries again; a stop during that wait is a clean exit.
  const enrolled = await agentSecret(config, VERSION, stop.signal).catch((err: unknown) => {
    if (stop.signal.aborted) return null;
    throw err;
  });
  if (enrolled === null) return 0;
  logLine('info', `Berth agent ${VERSION}`);
  // Read again at each dial: Berth may have rotated it while connected (POST /v1/secret).
  const secret = async () => (await readSecret(config.dataDir)) ?? enrolled;
  return stayConnected(config, secret, VERSION, stop.signal);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    logLine('error', err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
