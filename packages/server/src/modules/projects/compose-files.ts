import { ComposeFileError, readComposeFile } from '@berth/agent/compose-file';
import {
  AGENT_URL_SCHEME,
  COMPOSE_FILES_MAX,
  type ComposeFile,
  type ComposeFiles,
  type Project,
} from '@berth/contracts';

/** How Berth reaches a host's files: its engine URL, and the agent that can read them. */
export interface ComposeFileReach {
  /** The host's engine URL (`unix://…`, `tcp://…`, `agent://<id>`). */
  urlOf(hostId: string): string | undefined;
  /** The agent carrying the host when it is connected and reads compose files; else null. */
  agentFor(url: string | undefined): string | null;
  readOnAgent(
    agentId: string,
    req: { project: string; path: string },
  ): Promise<{ content: string; size: number }>;
}

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The files a project's config_files label names, read where they are: by Berth itself when
 * the host is the local unix socket (the files are on this machine), by the host's agent
 * otherwise, never for a TCP or TLS host (Berth has no way to its files). Only the label's
 * paths are read; each one is checked and bounded by readComposeFile (here or on the agent).
 */
export async function readProjectFiles(
  project: Project,
  reach: ComposeFileReach,
): Promise<ComposeFiles> {
  const paths = project.config_files.slice(0, COMPOSE_FILES_MAX);
  if (paths.length === 0)
    return {
      source: 'none',
      reason: 'No container of this project names its compose file (config_files label)',
      files: [],
    };
  const url = reach.urlOf(project.host_id);
  const unread = (reason: string): ComposeFiles => ({
    source: 'none',
    reason,
    files: paths.map((path) => ({ path, content: null, size: null, error: null })),
  });
  if (url?.startsWith('unix://') === true) {
    const files = await Promise.all(
      paths.map(async (path): Promise<ComposeFile> => {
        try {
          const { content, size } = await readComposeFile(path);
          return { path, content, size, error: null };
        } catch (err) {
          const why = err instanceof ComposeFileError ? err.message : errText(err);
          return { path, content: null, size: null, error: `Berth cannot read it: ${why}` };
        }
      }),
    );
    return { source: 'local', reason: null, files };
  }
  if (url?.startsWith(AGENT_URL_SCHEME) === true) {
    const agentId = reach.agentFor(url);
    if (agentId === null)
      return unread('The agent of this host is not connected, or is too old to read compose files');
    const files = await Promise.all(
      paths.map(async (path): Promise<ComposeFile> => {
        try {
          const { content, size } = await reach.readOnAgent(agentId, {
            project: project.name,
            path,
          });
          return { path, content, size, error: null };
        } catch (err) {
          return {
            path,
            content: null,
            size: null,
            error: `The agent cannot read it: ${errText(err)}`,
          };
        }
      }),
    );
    return { source: 'agent', reason: null, files };
  }
  return unread(
    'Berth reaches this host over TCP and cannot read files on it; connect the host through the agent to see its compose files',
  );
}
