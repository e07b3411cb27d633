import { statSync } from 'node:fs';

/**
 * Why the engine socket refused a connection, in one line; for EACCES, what to add: the agent
 * runs as uid 1000 in its image and reaches the socket through the socket's group, as Berth does.
 */
export function describeSocketError(err: Error, socketPath: string): string {
  const code = (err as { code?: unknown }).code;
  if (code !== 'EACCES') return `Engine socket ${socketPath}: ${err.message}`;
  let gid = '<gid>';
  try {
    gid = String(statSync(socketPath).gid);
  } catch {
    // the path is there (EACCES); a stat refused too leaves the placeholder
  }
  return `Engine socket ${socketPath}: permission denied for uid ${process.getuid?.() ?? '?'}; add the socket's group: --group-add ${gid} (docker run), group_add: ["${gid}"] (compose), SupplementaryGroups=${gid} (systemd)`;
}
