import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host, Project } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { docker } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

// Compose projects without the compose binary: busybox containers with compose's labels, one
// project on the local socket (its file read by Berth) and one on the plain TCP engine.
const hex = randomBytes(3).toString('hex');
const localProject = `e2eproj${hex}`;
const tcpProject = `e2etcp${hex}`;
const dir = mkdtempSync(join(tmpdir(), `e2e-proj-${hex}-`));
const composePath = join(dir, 'compose.yaml');
const made: ['local' | 'plain', string][] = [];
const ARTIFACTS = new URL('../.artifacts/', import.meta.url).pathname;

function service(engine: 'local' | 'plain', project: string, name: string, dependsOn?: string) {
  const container = `${project}-${name}-1`;
  const labels = {
    'com.docker.compose.project': project,
    'com.docker.compose.service': name,
    'com.docker.compose.project.working_dir': dir,
    'com.docker.compose.project.config_files': composePath,
    ...(dependsOn === undefined ? {} : { 'com.docker.compose.depends_on': dependsOn }),
  };
  docker(
    engine,
    'run',
    '-d',
    '--name',
    container,
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
    'berth-test/busybox:1.0',
    'sh',
    '-c',
    "trap 'exit 0' TERM; while :; do sleep 1; done",
  );
  made.push([engine, container]);
}

test.afterAll(() => {
  for (const [engine, name] of made.splice(0)) {
    try {
      docker(engine, 'rm', '-f', name);
    } catch {
      // gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

test('compose projects: grouped, stopped and started in order, the compose file, host tab, phone', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(120_000);
  writeFileSync(
    composePath,
    `services:\n  db:\n    image: busybox\n  web:\n    depends_on: [db]\n`,
  );
  service('local', localProject, 'db');
  service('local', localProject, 'web', 'db:service_started:false');
  service('plain', tcpProject, 'app');
  const api = await apiFor(readyServer.url);
  const here = await api.post<Host>('/hosts', hostPayload('local', 'here'));
  await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
  await expect
    .poll(async () => (await api.get<Project[]>('/projects')).map((p) => p.name).sort(), {
      timeout: 30_000,
    })
    .toEqual(expect.arrayContaining([localProject, tcpProject]));

  await signIn(page);
  await page.goto('/projects');
  const card = page
    .getByTestId('project-card')
    .and(page.locator(`[data-project="${localProject}"]`));
  await expect(card.getByTestId('project-state').first()).toHaveText('running');
  await expect(card.getByTestId('project-service')).toHaveText([/^db/, /^web.*after db/]);
  await expect(page.locator(`[data-project="${tcpProject}"]`)).toBeVisible();

  // The host filter narrows the list to one host.
  await page.getByTestId('projects-host-filter').selectOption(here.id);
  await expect(page.locator(`[data-project="${tcpProject}"]`)).toHaveCount(0);
  await expect(card).toBeVisible();

  // Stop behind a confirm: dependants first, each step shown.
  await card.getByRole('button', { name: 'Stop', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: `Stop project ${localProject}` });
  await expect(confirm).toContainText('dependants first');
  await confirm.getByRole('button', { name: 'Stop', exact: true }).click();
  const job = card.getByTestId('project-job');
  await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(job.getByTestId('project-job-step')).toHaveText([
    /^stop web.*completed/,
    /^stop db.*completed/,
  ]);
  await expect(job).toContainText('reverse dependency order');
  await expect(card.getByTestId('project-state').first()).toHaveText('stopped', {
    timeout: 15_000,
  });
  expect(docker('local', 'inspect', '-f', '{{.State.Running}}', `${localProject}-db-1`)).toBe(
    'false',
  );

  // Start: dependencies first.
  await card.getByRole('button', { name: 'Start', exact: true }).click();
  await page
    .getByRole('dialog', { name: `Start project ${localProject}` })
    .getByRole('button', { name: 'Start', exact: true })
    .click();
  await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(job.getByTestId('project-job-step')).toHaveText([
    /^start db.*completed/,
    /^start web.*completed/,
  ]);
  await expect(card.getByTestId('project-state').first()).toHaveText('running', {
    timeout: 15_000,
  });

  await page.screenshot({ path: `${ARTIFACTS}projects-1440.png` });

  // The compose file, read-only, as Berth read it from the label's path.
  await card.getByRole('button', { name: 'Compose file' }).click();
  const file = page.getByRole('dialog', { name: `Compose file: ${localProject}` });
  await expect(file.getByTestId('compose-file-content')).toContainText('depends_on: [db]');
  await expect(file).toContainText(composePath);
  await page.screenshot({ path: `${ARTIFACTS}projects-compose-file.png` });
  await page.keyboard.press('Escape');

  // Over TCP Berth says why it cannot show the file.
  await page.getByTestId('projects-host-filter').selectOption('');
  const tcpCard = page.locator(`[data-project="${tcpProject}"]`);
  await tcpCard.getByRole('button', { name: 'Compose file' }).click();
  await expect(page.getByTestId('compose-file-reason')).toContainText('over TCP');
  await page.keyboard.press('Escape');

  // The host modal's tab shows the host's projects.
  await page.goto(`/hosts?hostId=${here.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Projects' }).click();
  await expect(modal.locator(`[data-project="${localProject}"]`)).toBeVisible({ timeout: 20_000 });

  // A phone: the cards fit the width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/projects');
  await expect(page.locator(`[data-project="${localProject}"]`)).toBeVisible({ timeout: 20_000 });
  await expect(
    page
      .locator(`[data-project="${localProject}"]`)
      .getByRole('button', { name: 'Pull & recreate' }),
  ).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${ARTIFACTS}projects-390.png`, fullPage: true });
});
