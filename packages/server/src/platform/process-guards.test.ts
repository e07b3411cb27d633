import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ensureServerBuilt,
  startServer,
  stopServer,
  type ServerProcess,
} from '../test/server-process.js';
import { installProcessGuards } from './process-guards.js';

const fakeProcess = () => {
  const emitter = new EventEmitter();
  const logger = { error: vi.fn(), fatal: vi.fn() };
  const exit = vi.fn();
  const uninstall = installProcessGuards({ logger: () => logger, target: emitter, exit });
  return { emitter, logger, exit, uninstall };
};

describe('process guards (on a stand-in process)', () => {
  it('log an unhandled rejection and keep going', () => {
    const { emitter, logger, exit } = fakeProcess();
    const reason = new Error('x');
    emitter.emit('unhandledRejection', reason, Promise.resolve());
    expect(logger.error).toHaveBeenCalledWith({ err: reason }, expect.any(String));
    expect(exit).not.toHaveBeenCalled();
  });

  it('log an uncaught exception as fatal and exit with 1', () => {
    const { emitter, logger, exit } = fakeProcess();
    const err = new Error('sync');
    emitter.emit('uncaughtException', err);
    expect(logger.fatal).toHaveBeenCalledWith({ err }, expect.any(String));
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('come off again', () => {
    const { emitter, uninstall } = fakeProcess();
    uninstall();
    expect(emitter.listenerCount('unhandledRejection')).toBe(0);
    expect(emitter.listenerCount('uncaughtException')).toBe(0);
  });
});

/** A real Node process (the guards' TypeScript runs through Node's type stripping). */
const guardsSource = fileURLToPath(new URL('./process-guards.ts', import.meta.url));
function runNode(body: string, guarded: boolean) {
  const install = guarded
    ? `const g = await import(${JSON.stringify(guardsSource)});
       g.installProcessGuards({ logger: () => g.consoleGuardLogger });`
    : '';
  const script = `${install}\n${body}\nsetTimeout(() => console.log('still alive'), 300);`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 10_000,
  });
}

describe('process guards (in a real Node process)', () => {
  it('without them, an unhandled rejection ends Node 24 (the control)', () => {
    const run = runNode(`Promise.reject(new Error('boom-x'));`, false);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('still alive');
  });

  it('with them, an unhandled rejection is logged and the process lives on', () => {
    const run = runNode(`Promise.reject(new Error('boom-x'));`, true);
    expect(run.stderr).toContain('unhandled promise rejection');
    expect(run.stderr).toContain('boom-x');
    expect(run.stdout).toContain('still alive');
    expect(run.status).toBe(0);
  });

  it('with them, an uncaught exception is logged and the process exits with 1', () => {
    const run = runNode(`setTimeout(() => { throw new Error('sync-boom'); }, 10);`, true);
    expect(run.stderr).toContain('uncaught exception');
    expect(run.stderr).toContain('sync-boom');
    expect(run.stdout).not.toContain('still alive');
    expect(run.status).toBe(1);
  });
});

describe('the built server', () => {
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    ensureServerBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'berth-guards-'));
    // A preload that leaves a rejected promise unhandled once the server is up.
    const reject = `setTimeout(() => { Promise.reject(new Error('preloaded-boom')); }, 1500);`;
    server = await startServer(dataDir, {
      nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(reject)}`],
    });
  });
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps serving after an unhandled rejection and logs it through its logger', async () => {
    await expect
      .poll(() => server.output(), { timeout: 10_000, interval: 100 })
      .toContain('preloaded-boom');
    const logLine = server
      .output()
      .split('\n')
      .find((l) => l.includes('preloaded-boom'));
    // pino's JSON line, so the app logger took over from the console.
    expect(JSON.parse(logLine ?? '{}')).toMatchObject({ level: 50 });
    const health = await fetch(`${server.base}/api/health`);
    expect(health.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
