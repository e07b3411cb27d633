#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { AGENT_SECRET_HEADER, agentSecretHeaderValue } from '@berth/contracts/agents';
import { readAgentConfig } from './config.js';
import { connectToBerth } from './connect.js';
import { agentSecret } from './enroll.js';
import { logLine } from './log.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/**
 * The agent process: enrolls once, then dials Berth and serves its engine requests until the
 * connection ends, then exits non-zero so its supervisor (Docker's restart policy, systemd)
 * starts it again.
 */
async function main(): Promise<number> {
  const config = readAgentConfig(process.env);
  const secret = await agentSecret(config, VERSION);
  const connection = await connectToBerth({
    url: config.connectUrl,
    headers: { [AGENT_SECRET_HEADER]: agentSecretHeaderValue(secret) },
    socketPath: config.socketPath,
    onStreamError: (message) => logLine('warn', message),
  });
  logLine(
    'info',
    `Agent ${VERSION} connected to ${config.connectUrl}, engine at ${config.socketPath}`,
  );
  const stop = () => connection.socket.close(1001, 'agent stopping');
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const { code, reason } = await connection.closed;
  logLine('info', `Connection closed (${code}${reason === '' ? '' : `: ${reason}`})`);
  return code === 1001 || code === 1000 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    logLine('error', err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
