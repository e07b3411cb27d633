import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test } from '../fixtures/test.js';
import { rigEngine } from '../fixtures/rig.js';

const AGENT_MAIN = resolve(import.meta.dirname, '../../packages/agent/dist/main.js');
const shot = (name: string) => new URL(`../.artifacts/${name}.png`, import.meta.url).pathname;

/** The values of the `-e KEY=value` options of the dialog's docker run line. */
function envOf(command: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, key, value] of command.matchAll(/-e '?([A-Z_]+)=([^'\s]*)'?/g))
    if (key !== undefined && value !== undefined) env[key] = value;
  return env;
}

test.describe('agent hosts', () => {
  let agent: ChildProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-e2e-agent-'));

  test.afterAll(() => {
    agent?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('adds a host by its agent, shows it as an agent and rotates its secret', async ({
    page,
    readyServer,
  }) => {
    await signIn(page);
    await page.goto('/hosts');
    await page.getByRole('button', { name: 'Add Host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Host' });
    await dialog.getByRole('radio', { name: 'Agent' }).check();
    await dialog.getByLabel('Name (optional)').fill('edge-agent');
    await dialog.getByRole('button', { name: 'Create enrollment token' }).click();

    const run = dialog.getByLabel('docker run', { exact: true });
    await expect(run).toContainText('docker run -d --name berth-agent --restart unless-stopped');
    const command = (await run.textContent()) ?? '';
    for (const part of [
      '-v /var/run/docker.sock:/var/run/docker.sock',
      '-v /proc:/host/proc:ro',
      // Container stats from the host's cgroup files.
      '--cgroupns=host',
      '-v /sys/fs/cgroup:/sys/fs/cgroup:ro',
      '-v berth-agent:/var/lib/berth-agent',
      `-e BERTH_URL=${readyServer.url}`,
      '-e BERTH_AGENT_NAME=edge-agent',
    ])
      expect(command).toContain(part);
    expect(command.trim().endsWith('berth-agent')).toBe(true);
    await expect(dialog.getByText('docker build --target agent -t berth-agent .')).toBeVisible();
    await expect(dialog.getByTestId('token-expiry')).toContainText('(1 hour)');
    await expect(dialog.getByText('Waiting for the agent to connect…')).toBeVisible();
    await page.screenshot({ path: shot('agent-add-dialog') });
    await dialog.getByText('Or with Docker Compose').click();
    await expect(dialog.getByLabel('Compose', { exact: true })).toContainText('image: berth-agent');
    await expect(dialog.getByLabel('Compose', { exact: true })).toContainText(
      'BERTH_AGENT_NAME: "edge-agent"',
    );

    // The command's own values, the engine socket the rig's instead of the machine's.
    const env = envOf(command);
    expect(env.BERTH_AGENT_TOKEN?.length).toBeGreaterThan(20);
    agent = spawn(process.execPath, [AGENT_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        ...env,
        BERTH_AGENT_DOCKER_SOCKET: rigEngine('plain').socket.replace(/^unix:\/\//, ''),
        BERTH_AGENT_DATA_DIR: dataDir,
      },
      stdio: 'ignore',
    });
    await expect(dialog.getByText('Agent host "edge-agent" is online')).toBeVisible({
      timeout: 30_000,
    });
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByTestId('host-row-edge-agent');
    await expect(row.getByTestId('connection-type')).toHaveText('Agent 0.1.0');
    await expect(row.getByText('Online')).toBeVisible();
    // Plain http:// here: the agent's connection warns like plain TCP does.
    await expect(row.getByLabel('Insecure')).toBeVisible();
    await page.screenshot({ path: shot('agent-hosts-table') });

    const before = readFileSync(join(dataDir, 'secret'), 'utf8');
    await row.getByRole('button', { name: 'Rotate secret of edge-agent' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate secret' });
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByText('Secret of "edge-agent" rotated')).toBeVisible();
    expect(readFileSync(join(dataDir, 'secret'), 'utf8')).not.toBe(before);
    await expect(row.getByText('Online')).toBeVisible();

    // Its URL is its agent's: shown in the edit form, not editable.
    await row.getByRole('button', { name: 'Edit edge-agent' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Host' });
    await expect(edit.getByLabel('Address/Endpoint')).toHaveAttribute('readonly', '');
    await edit.getByRole('button', { name: 'Test Connection' }).click();
    await expect(
      edit.getByText(/^Connection successful! Docker \S+ \(API 1\.\d+\)$/),
    ).toBeVisible();
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // The drawer and the modal say the same, the drawer with the plain connection's warning.
    await (
      await apiFor(readyServer.url)
    ).patch('/v2/user/preferences', {
      simplified_workflow: false,
    });
    await page.reload();
    await page.getByRole('button', { name: 'View edge-agent' }).click();
    const drawer = page.getByRole('dialog', { name: 'edge-agent' });
    await expect(drawer.getByTestId('drawer-connection-type')).toHaveText('Agent 0.1.0');
    // What the agent runs next to its engine, and when it last connected (it still is).
    await expect(drawer.getByTestId('drawer-agent-capabilities')).toHaveText(
      'HTTP probes, container stats, host metrics, compose files',
    );
    await expect(drawer.getByTestId('drawer-agent-last-connected')).toHaveText(
      /^\d+[smhd] ago \(still connected\)$/,
    );
    await expect(drawer.getByText(/connects over plain ws:\/\//)).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Rotate secret' })).toBeVisible();
    await page.screenshot({ path: shot('agent-host-drawer') });
    await drawer.getByRole('button', { name: 'Expand' }).click();
    await expect(page.getByTestId('modal-connection-type')).toHaveText('Agent 0.1.0');
    await expect(page.getByTestId('modal-agent-capabilities')).toHaveText(
      'HTTP probes, container stats, host metrics, compose files',
    );
    await expect(page.getByTestId('modal-agent-last-connected')).toContainText('ago');
  });

  test('an agent of another protocol is refused, and its host says why', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    const { token } = await api.post<{ token: string }>('/agents/enrollment-tokens');
    const enrolled = await fetch(`${readyServer.url}/api/agents/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-berth-enrollment-token': token },
      body: JSON.stringify({ name: 'old-agent', version: '0.0.9' }),
    });
    const { secret } = (await enrolled.json()) as { secret: string };
    // What an agent of protocol 0 sends when it dials (the refusal comes before any upgrade).
    const dialled = await fetch(`${readyServer.url}/api/agents/connect`, {
      headers: {
        authorization: `Bearer ${secret}`,
        'x-berth-agent-version': '0.0.9',
        'x-berth-agent-protocol': '0',
      },
    });
    expect(dialled.status).toBe(426);

    await signIn(page);
    await page.goto('/hosts');
    const row = page.getByTestId('host-row-old-agent');
    await expect(
      row.getByText(
        'Agent 0.0.9 speaks protocol 0; this Berth speaks protocol 1: update the agent',
      ),
    ).toBeVisible();
    await expect(row.getByTestId('connection-type')).toHaveText('Agent 0.0.9');
    await page.screenshot({ path: shot('agent-refused-row') });
  });
});
