import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, normalize } from 'node:path';
import {
  COMPOSE_FILE_MAX_BYTES,
  COMPOSE_LABELS,
  type AgentComposeFileRequest,
} from '@berth/contracts/agent-wire';
import { AgentRequestError } from '../agent-api.js';
import { engineGet } from './engine-get.js';

/** How long the engine may take to list one project's containers. */
const LIST_TIMEOUT_MS = 5000;
const LIST_CAP_BYTES = 4 * 1024 * 1024;
const COMPOSE_NAME = /\.(ya?ml)$/i;

/** A compose file that cannot be shown, with the reason in words (never a stack). */
export class ComposeFileError extends Error {
  override name = 'ComposeFileError';
}

/** The paths a config_files label names (compose joins several with commas). */
export function composeFilesOf(label: string | undefined): string[] {
  if (label === undefined) return [];
  return label
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * Reads one compose file, bounded: an absolute, already normal path (no `..`), a YAML file by
 * its name and by what it resolves to (a label cannot point Berth at /etc/shadow), a regular
 * file, at most COMPOSE_FILE_MAX_BYTES. The caller has checked a label names the path.
 */
export async function readComposeFile(path: string): Promise<{ content: string; size: number }> {
  if (!isAbsolute(path) || normalize(path) !== path || path.split('/').includes('..'))
    throw new ComposeFileError('Not an absolute, normal path');
  if (!COMPOSE_NAME.test(path)) throw new ComposeFileError('Not a .yml or .yaml file');
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    throw new ComposeFileError(readError(err));
  }
  if (!COMPOSE_NAME.test(real)) throw new ComposeFileError('It links to a file that is not YAML');
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new ComposeFileError(readError(err));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ComposeFileError('Not a regular file');
    if (stat.size > COMPOSE_FILE_MAX_BYTES)
      throw new ComposeFileError(
        `The file is ${stat.size} bytes; at most ${COMPOSE_FILE_MAX_BYTES} are shown`,
      );
    const buffer = Buffer.alloc(COMPOSE_FILE_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > COMPOSE_FILE_MAX_BYTES)
      throw new ComposeFileError(`The file grew past ${COMPOSE_FILE_MAX_BYTES} bytes`);
    return { content: buffer.subarray(0, bytesRead).toString('utf8'), size: bytesRead };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function readError(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT') return 'No such file where the label says';
  if (code === 'EACCES' || code === 'EPERM') return 'Permission denied';
  return err instanceof Error ? err.message : String(err);
}

/**
 * The agent's `POST /v1/compose-file`: reads the file only when a container of the project on
 * this engine names exactly that path in its config_files label; every other path is refused
 * (403), so the route reads compose files and nothing else.
 */
export function composeFileHandler(
  socketPath: string,
): (req: AgentComposeFileRequest) => Promise<{ content: string; size: number }> {
  return async ({ project, path }) => {
    const filters = JSON.stringify({ label: [`${COMPOSE_LABELS.project}=${project}`] });
    const listed = await engineGet(
      socketPath,
      `/containers/json?all=1&filters=${encodeURIComponent(filters)}`,
      { timeoutMs: LIST_TIMEOUT_MS, capBytes: LIST_CAP_BYTES },
    );
    const named = Array.isArray(listed)
      ? listed.some((c: { Labels?: Record<string, string> }) =>
          composeFilesOf(c.Labels?.[COMPOSE_LABELS.configFiles]).includes(path),
        )
      : false;
    if (!named)
      throw new AgentRequestError(
        403,
        `path: No container of project ${project} on this host names this compose file`,
      );
    try {
      return await readComposeFile(path);
    } catch (err) {
      // An agent in a container sees the host's files only where they are mounted.
      const hint =
        err instanceof ComposeFileError && err.message.startsWith('No such file')
          ? " (in the agent's container, mount the project's folder read-only at the same path)"
          : '';
      if (err instanceof ComposeFileError)
        throw new AgentRequestError(422, `${err.message}${hint}`);
      throw err;
    }
  };
}
