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

/**
 * A preload for the built server with two rejections nobody handles, each at a moment fixed
 * by an event rather than by a delay: `early-boom` as soon as main installs its guards (the
 * app, and its logger, cannot exist yet: building it needs I/O), `late-boom` on SIGUSR2,
 * which the test sends once the server answers (its logger took over before it listened).
 */
const PRELOAD = `
const on = process.on.bind(process);
let armed = true;
process.on = (event, listener) => {
  on(event, listener);
  if (event === 'unhandledRejection' && armed) {
    armed = false;
    Promise.reject(new Error('early-boom'));
  }
  return process;
};
on('SIGUSR2', () => { Promise.reject(new Error('late-boom')); });
`;

/** The output line that starts with `start` and holds `text` (stack lines quote the preload). */
const lineWith = (output: string, start: string, text: string) =>
  output.split('\n').find((l) => l.startsWith(start) && l.includes(text)) ?? '';

describe('the built server', () => {
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    ensureServerBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'berth-guards-'));
    server = await startServer(dataDir, {
      nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(PRELOAD)}`],
    });
  });
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs a rejection raised before its logger exists on the console, and starts', () => {
    // Plain text: there is no pino before the app is built (nor a configured level).
    const line = lineWith(server.output(), 'unhandled', 'Error: early-boom');
    expect(line).toBe('unhandled promise rejection (still serving) Error: early-boom');
    expect(() => JSON.parse(line) as unknown).toThrow();
  });

  it('keeps serving after an unhandled rejection and logs it through its logger', async () => {
    server.child.kill('SIGUSR2');
    const logged = () => lineWith(server.output(), '{', 'late-boom');
    await expect.poll(logged, { timeout: 10_000, interval: 50 }).not.toBe('');
    // pino's JSON line, so the app logger took over from the console.
    expect(JSON.parse(logged())).toMatchObject({
      level: 50,
      msg: 'unhandled promise rejection (still serving)',
      err: { message: 'late-boom' },
    });
    const health = await fetch(`${server.base}/api/health`);
    expect(health.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
