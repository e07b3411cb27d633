/** A failure the operator can act on: printed as one line, exit status 1. */
export class CliFailure extends Error {
  override name = 'CliFailure';
  readonly exitCode: number = 1;
}

/** A command line Berth does not understand: the message and the usage, exit status 2. */
export class UsageError extends CliFailure {
  override name = 'UsageError';
  override readonly exitCode = 2;
}

/**
 * Why a backup cannot be restored ("truncated", "wrong passphrase", ...); the restore command
 * names the file before it. Raised before the data directory is touched.
 */
export class RestoreRefused extends CliFailure {
  override name = 'RestoreRefused';
}
