import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_API_PATHS, AGENT_URL_SCHEME, COMPOSE_LABELS } from '@berth/contracts';
import type { ComposeFiles, Project } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, IDLE, readRig } from '../../test/rig.js';
import { openTransportHost, type TransportHost } from '../../test/transports.js';
import { waitFor } from '../../test/wait.js';

// An agent host's compose file is read by its agent (a process of its own here), and only a
// file a compose label of a container on that engine names: every other path is refused there.
const hex = randomBytes(3).toString('hex');
const project = `berthagentproj${hex}`;
const dir = mkdtempSync(join(tmpdir(), `berth-agent-proj-${hex}-`));
const composePath = join(dir, 'docker-compose.yml');
const overridePath = join(dir, 'override.yml');
const secretPath = join(dir, 'secret.yml');
const composeText = 'services:\n  app:\n    image: busybox\n';
const names: string[] = [];

describe('compose files through the agent', { timeout: 120_000 }, () => {
  let h: TransportHost;

  beforeAll(async () => {
    writeFileSync(composePath, composeText);
    writeFileSync(secretPath, 'password: not-for-berth\n');
    h = await openTransportHost('agent');
    const name = `${project}-app-1`;
    // The override file is named but was never written: the agent says so.
    dockerCli(h.engine, [
      'run',
      '-d',
      '--name',
      name,
      '--label',
      `${COMPOSE_LABELS.project}=${project}`,
      '--label',
      `${COMPOSE_LABELS.service}=app`,
      '--label',
      `${COMPOSE_LABELS.configFiles}=${composePath},${overridePath}`,
      readRig().images.busybox,
      'sh',
      '-c',
      IDLE,
    ]);
    names.push(name);
  }, 180_000);

  afterAll(async () => {
    for (const name of names) dockerCli(h.engine, ['rm', '-f', name]);
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reads the labelled files on the agent, and refuses any other path', async () => {
    expect(h.host.connection.agent?.capabilities).toContain('compose-file');
    await waitFor('the project listed', async () => {
      const list = (await h.api.get<Project[]>(`/hosts/${h.host.id}/projects`)).body;
      return Array.isArray(list) && list.some((p) => p.name === project);
    });
    const read = await h.api.get<ComposeFiles>(
      `/hosts/${h.host.id}/projects/${project}/compose-file`,
    );
    expect(read.status).toBe(200);
    expect(read.body.source).toBe('agent');
    expect(read.body.files[0]).toEqual({
      path: composePath,
      content: composeText,
      size: composeText.length,
      error: null,
    });
    expect(read.body.files[1]).toMatchObject({ path: overridePath, content: null });
    expect(read.body.files[1]?.error).toContain('No such file where the label says');

    // Straight to the agent: a path no label names, and a traversal, are refused there.
    const url = t0url(h);
    const agentId = url.slice(AGENT_URL_SCHEME.length);
    const ask = (body: unknown) =>
      h.t.app.services.agentTunnels.request(agentId, {
        method: 'POST',
        path: AGENT_API_PATHS.composeFile,
        body,
        timeoutMs: 10_000,
      });
    await expect(ask({ project, path: secretPath })).rejects.toThrow(
      `No container of project ${project} on this host names this compose file`,
    );
    await expect(
      ask({ project, path: `${dir}/../${dir.split('/').pop()}/docker-compose.yml` }),
    ).rejects.toThrow('names this compose file');
    await expect(ask({ project, path: 'docker-compose.yml' })).rejects.toThrow(
      'path: Must be an absolute path',
    );
    await expect(ask({ project: '../x', path: composePath })).rejects.toThrow(
      'project: Not a compose project name',
    );
  });
});

/** The host's engine URL (`agent://<id>`), as the monitor holds it. */
function t0url(h: TransportHost): string {
  const url = h.t.app.services.monitor.urlOf(h.host.id);
  if (url === undefined) throw new Error('host not supervised');
  return url;
}
