import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ensureServerBuilt,
  freePort,
  SERVER_MAIN,
  serverEnv,
  startServer,
  stopServer,
} from '../test/server-process.js';
import { waitFor } from '../test/wait.js';

/** The built server's log lines: JSON for machines, readable lines for people. */
const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-logs-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts, answers one request, stops; the log lines it wrote, colours taken out. */
async function linesOf(format: string): Promise<string[]> {
  const server = await startServer(newDataDir(), {
    env: { BERTH_LOG_LEVEL: 'info', BERTH_LOG_FORMAT: format },
  });
  await fetch(`${server.base}/api/health`);
  await fetch(`${server.base}/api/settings`); // refused without a session, and logged
  await stopServer(server);
  return lines(server.output());
}

const lines = (output: string) =>
  output
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
const isJsonObject = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

describe('log lines', { timeout: 30_000 }, () => {
  it('are one JSON object each when stdout is not a terminal, or with BERTH_LOG_FORMAT=json', async () => {
    ensureServerBuilt();
    for (const format of ['', 'json']) {
      const logged = await linesOf(format);
      expect(logged.filter((line) => !isJsonObject(line))).toEqual([]);
      const messages = logged.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toContain('request completed');
      // Docker's health probe every 10 s would otherwise bury the log.
      expect(logged.filter((line) => line.includes('/api/health'))).toEqual([]);
      expect(messages.some((m) => m.startsWith('Server listening at http://127.0.0.1:'))).toBe(
        true,
      );
    }
  });

  it('are readable lines, no JSON, with BERTH_LOG_FORMAT=pretty', async () => {
    const logged = await linesOf('pretty');
    expect(logged.filter(isJsonObject)).toEqual([]);
    expect(logged).toContainEqual(
      expect.stringMatching(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at/),
    );
    expect(logged).toContainEqual(expect.stringMatching(/INFO: stopped cleanly in \d+ ms$/));
  });

  it('are readable lines on a terminal (a pty from script(1)) with nothing set', async () => {
    const env = serverEnv(newDataDir(), await freePort(), {
      BERTH_LOG_LEVEL: 'info',
      BERTH_LOG_FORMAT: '',
    });
    const child = spawn('script', ['-qfec', `${process.execPath} ${SERVER_MAIN}`, '/dev/null'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor('the server listening', () => out.includes('Server listening'));
    } finally {
      child.kill('SIGTERM'); // the pty closes: the server gets SIGHUP
      await exited;
    }
    const logged = lines(out);
    expect(logged.filter(isJsonObject)).toEqual([]);
    expect(logged).toContainEqual(expect.stringMatching(/\] INFO: Server listening at/));
  });
});
