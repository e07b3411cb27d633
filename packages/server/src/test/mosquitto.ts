import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Debian's mosquitto (the rig installs it) as a test broker: its own process on a free
// loopback port, with a temporary config and, when users are given, a password file.

export interface TestBroker {
  port: number;
  url: string;
  /** Kills the broker (SIGKILL: no clean goodbye to its clients). */
  kill: () => Promise<void>;
  /** Starts it again on the same port and config. */
  start: () => Promise<void>;
  /** Kills it and removes its files. */
  stop: () => Promise<void>;
}

export const MOSQUITTO = '/usr/sbin/mosquitto';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** A broker on loopback; `users` (name → password) turns anonymous access off. */
export async function startBroker(
  opts: { users?: Record<string, string> } = {},
): Promise<TestBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-mqtt-'));
  // Started as root, mosquitto drops to its own user, which must read the config and passwords.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const lines = [`listener ${port} 127.0.0.1`, 'persistence false', 'log_dest none'];
  if (opts.users === undefined) lines.push('allow_anonymous true');
  else {
    const file = join(dir, 'passwords');
    let first = true;
    for (const [user, password] of Object.entries(opts.users)) {
      execFileSync('mosquitto_passwd', [...(first ? ['-c'] : []), '-b', file, user, password]);
      first = false;
    }
    chmodSync(file, 0o644);
    lines.push('allow_anonymous false', `password_file ${file}`);
  }
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `${lines.join('\n')}\n`);
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (c === null || c.exitCode !== null) return;
    const exited = new Promise((done) => c.once('exit', done));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
