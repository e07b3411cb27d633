#!/usr/bin/env node
// The `berth` command. Each command loads only what it needs: `berth start` (the image's
// entrypoint) must start as fast as dist/main.js does.
import { ConfigError, loadConfig } from '../config/config.js';
import { parseFileArgs, parseOneArg, readPassphrase, USAGE, type Output } from './cli-args.js';
import { CliFailure, UsageError } from './cli-errors.js';

const output: Output = {
  log: (line) => console.log(line),
  warn: (line) => console.warn(line),
};

/** backup's and restore's options: FILE, the passphrase if any, the server's data directory. */
function fileCommand(command: string, args: string[]) {
  const { file, passphraseFile } = parseFileArgs(command, args);
  return { file, passphrase: readPassphrase(passphraseFile), dataDir: loadConfig().dataDir };
}

async function run(command: string, args: string[]): Promise<void> {
  switch (command) {
    case 'start':
      if (args.length > 0) throw new UsageError('start takes no arguments');
      // main.ts starts the server when imported.
      await import('../main.js');
      return;
    case 'backup': {
      const { backup } = await import('./backup.js');
      await backup(fileCommand(command, args), output);
      return;
    }
    case 'restore': {
      const { restore } = await import('./restore.js');
      await restore(fileCommand(command, args), output);
      return;
    }
    case 'reset-password': {
      const username = parseOneArg(command, 'USER', args);
      const { resetPassword } = await import('./reset-password.js');
      await resetPassword({ username, dataDir: loadConfig().dataDir }, output);
      return;
    }
    case 'reset-two-factor': {
      const username = parseOneArg(command, 'USER', args);
      const { resetTwoFactor } = await import('./reset-two-factor.js');
      await resetTwoFactor({ username, dataDir: loadConfig().dataDir }, output);
      return;
    }
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    case 'version':
    case '--version': {
      const { readVersion } = await import('../modules/system/version.js');
      console.log(readVersion());
      return;
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

/** A file system refusal (EACCES, ENOSPC, ...): its message names the call and the path. */
const isSystemError = (err: unknown): err is NodeJS.ErrnoException =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';

const [command = 'start', ...args] = process.argv.slice(2);
run(command, args).catch((err: unknown) => {
  // What the operator can act on is one line; anything else is a bug, with its stack.
  if (err instanceof UsageError) console.error(`${err.message}\n\n${USAGE}`);
  else if (err instanceof CliFailure || err instanceof ConfigError) console.error(err.message);
  else if (isSystemError(err)) console.error(`berth ${command} failed: ${err.message}`);
  else console.error(err);
  process.exitCode = err instanceof CliFailure ? err.exitCode : 1;
});
