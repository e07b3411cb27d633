import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliFailure, UsageError } from './cli-errors.js';

/** Where a command prints: its results to `log` (stdout), notices to `warn` (stderr). */
export interface Output {
  log(line: string): void;
  warn(line: string): void;
}

export const USAGE = `Usage: berth [COMMAND]

Commands:
  start                 Start Berth (the default)
  backup FILE [--passphrase-file F]
                        Write the database and its encryption key to one archive, while
                        Berth runs. With a passphrase file (its first line), encrypt it
  restore FILE [--passphrase-file F]
                        Replace the database and the key with a backup's, Berth stopped.
                        The replaced files are kept in a dated folder of the data directory
  reset-password USER   Print a new one-time password for USER and end their sessions
  reset-two-factor USER Turn off USER's two-factor sign-in (a lost authenticator and codes)
  help                  Print this text
  version               Print Berth's version

The data directory is BERTH_DATA_DIR (default ./data), as for the server.`;

export interface FileArgs {
  file: string;
  passphraseFile: string | null;
}

/** `FILE [--passphrase-file F]`, as backup and restore take them. */
export function parseFileArgs(command: string, args: string[]): FileArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { 'passphrase-file': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined) throw new UsageError(`${command} needs a FILE`);
  if (extra.length > 0)
    throw new UsageError(`${command} takes one FILE (got also ${extra.join(' ')})`);
  return { file, passphraseFile: parsed.values['passphrase-file'] ?? null };
}

/** One argument and nothing else (reset-password's USER). */
export function parseOneArg(command: string, what: string, args: string[]): string {
  const [value, ...extra] = args;
  if (value === undefined || value === '' || extra.length > 0) {
    throw new UsageError(`${command} takes one ${what}`);
  }
  return value;
}

/** The passphrase: the file's first line (a trailing newline is not part of it). */
export function readPassphrase(path: string | null): string | null {
  if (path === null) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new CliFailure(`Cannot read the passphrase file ${path}: ${code}`);
  }
  const passphrase = text.split(/\r?\n/)[0] ?? '';
  if (passphrase === '') throw new CliFailure(`The passphrase file ${path} is empty`);
  return passphrase;
}
