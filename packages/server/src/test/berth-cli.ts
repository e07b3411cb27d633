import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureServerBuilt, freePort } from './server-process.js';
import { waitFor } from './wait.js';

/** The built command, run as the package's bin runs it: the file itself (shebang, mode). */
export const BERTH_CLI = fileURLToPath(new URL('../../dist/cli/berth.js', import.meta.url));

/** A build from before the command has dist/main.js but not the command. */
export const ensureCliBuilt = () => ensureServerBuilt(BERTH_CLI);

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const cliEnv = (dataDir: string, env: Record<string, string>) => ({
  ...process.env,
  BERTH_DATA_DIR: dataDir,
  BERTH_LOCAL_SOCKET: 'none',
  BERTH_LOG_LEVEL: 'warn',
  ...env,
});

function collect(child: ChildProcess): { output: () => CliRun; exited: Promise<CliRun> } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const output = () => ({ code: child.exitCode, stdout, stderr });
  const exited = new Promise<CliRun>((resolve) => child.once('close', () => resolve(output())));
  return { output, exited };
}

/** Runs `berth ARGS` on a data directory to its end (asynchronously: servers keep serving). */
export function runBerth(dataDir: string, args: string[]): Promise<CliRun> {
  const child = spawn(BERTH_CLI, args, {
    env: cliEnv(dataDir, {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child).exited;
}

/** `berth` with no command (start) on a data directory, once /api/health answers. */
export async function startBerth(dataDir: string) {
  const port = await freePort();
  const child = spawn(BERTH_CLI, [], {
    env: cliEnv(dataDir, { BERTH_PORT: String(port), BERTH_HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = collect(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    'berth start to answer',
    async () => {
      if (child.exitCode !== null) throw new Error(`berth exited: ${JSON.stringify(output())}`);
      return (await fetch(`${base}/api/health`)).ok;
    },
    20_000,
    100,
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { child, base, output, stop };
}
