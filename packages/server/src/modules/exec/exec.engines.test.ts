import { randomUUID } from 'node:crypto';
import type { AuditResponse, ExecRecording, ExecRecordingList, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openEngine, type Engine } from '../../docker/index.js';
import { apiClient } from '../../test/api.js';
import { openExecClient } from '../../test/exec-client.js';
import { listenOnLoopback } from '../../test/listen.js';
import { dockerCli, endpointOf, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { userSignedIn } from '../../test/users.js';
import { waitFor } from '../../test/wait.js';
import { runningExecs } from './exec-count.js';

const plain = () => rigEngine('plain');

/**
 * Container shells on the rig's plain engine through Berth's socket: output, resize, the
 * bad input the issue names, and no exec process left running however a session ends.
 */
describe('container shells against the rig', () => {
  let t: TestApp;
  let base: string;
  let cookie: string;
  let host: Host;
  let engine: Engine;
  const tag = randomUUID().slice(0, 8);
  const running = `berth-exec-${tag}`;
  const stopped = `berth-exec-stopped-${tag}`;
  let runningId: string;
  let stoppedId: string;

  const open = (container = runningId, as = cookie) => openExecClient(base, as, host.id, container);
  const start = (
    command = '/bin/sh',
    extra: Partial<{ cols: number; rows: number; user: string }> = {},
  ) => ({ type: 'start', command, user: '', cols: 80, rows: 24, ...extra }) as const;

  /** A session's end goes on a moment after its socket closed (the process is reaped). */
  const noExecRunning = () =>
    waitFor(
      'no exec left running',
      async () => ((await runningExecs(engine, runningId)) === 0 ? true : undefined),
      15_000,
    );

  beforeAll(async () => {
    runningId = runBusybox(plain(), running, { options: ['--label', 'berth-test=exec'] });
    stoppedId = dockerCli(plain(), [
      'create',
      '--name',
      stopped,
      '--label',
      'berth-test=exec',
      'berth-test/busybox:1.0',
      'true',
    ]).slice(0, 12);
    engine = openEngine(endpointOf(plain()), { timeoutMs: 10_000 });
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
    cookie = await signedInCookie(t.app);
    const api = apiClient(t.app, cookie);
    host = (await api.post<Host>('/hosts', { name: `exec-${tag}`, url: plain().url })).body;
    await waitFor('the container listed', () =>
      t.app.services.monitor.container(host.id, runningId),
    );
  }, 120_000);

  afterAll(async () => {
    await t.close();
    dockerCli(plain(), ['rm', '-f', running, stopped]);
  });

  it('runs a shell: typed input echoes, output comes back, and an exit ends the session', async () => {
    const shell = await open();
    shell.send(start());
    expect(await shell.waitMessage('started')).toMatchObject({ command: ['/bin/sh'] });
    shell.type('echo "sum=$((40+2))"\r');
    await shell.waitOutput('sum=42');
    // 256 colours: the terminal type the session sets.
    shell.type('echo "term=$TERM"\r');
    await shell.waitOutput('term=xterm-256color');
    shell.type('exit 3\r');
    const ended = await shell.waitMessage('ended');
    expect(ended).toMatchObject({ reason: 'exited', exit_code: 3 });
    await shell.closed;
    await noExecRunning();
  });

  it('records what was typed only while recording is on, for admins to read back', async () => {
    const api = apiClient(t.app, cookie);
    const before = (await api.get<ExecRecordingList>('/exec/recordings')).body.total;
    const session = async (line: string) => {
      const shell = await open();
      shell.send(start());
      await shell.waitMessage('started');
      shell.type(`${line}\r`);
      await shell.waitOutput(line.replace('echo ', ''));
      shell.type('exit\r');
      await shell.waitMessage('ended');
      await shell.closed;
    };
    await session(`echo not-kept-${tag}`);
    expect((await api.put('/settings', { exec_recording: true })).status).toBe(200);
    try {
      await session(`echo kept-${tag}`);
      const list = await waitFor('the recording stored', async () => {
        const r = (await api.get<ExecRecordingList>('/exec/recordings')).body;
        return r.total > before ? r : undefined;
      });
      expect(list.total).toBe(before + 1);
      const newest = list.recordings[0];
      expect(newest).toMatchObject({
        actor: 'admin',
        host_id: host.id,
        host_name: `exec-${tag}`,
        container_id: runningId,
        container_name: running,
        command: '/bin/sh',
        truncated: false,
      });
      expect(newest).not.toHaveProperty('input');
      const one = await api.get<ExecRecording>(`/exec/recordings/${newest?.id}`);
      expect(one.body.input).toBe(`echo kept-${tag}\rexit\r`);
      expect(one.body.length).toBe(one.body.input.length);
      expect((await api.get('/exec/recordings/999999')).status).toBe(404);
      // Reading someone's keystrokes leaves its own row.
      const read = await waitFor('the read audited', async () => {
        const r = await api.get<AuditResponse>('/audit?action=container.exec.recording.read');
        return r.body.entries.find((e) => e.target === `recording ${newest?.id} of admin`);
      });
      expect(read).toMatchObject({ actor: 'admin', container_name: running });
    } finally {
      await api.put('/settings', { exec_recording: false });
    }
  });

  it('clamps an absurd resize and tells the browser the size it got', async () => {
    const shell = await open();
    shell.send(start('/bin/sh', { cols: 100_000, rows: -5 }));
    await shell.waitMessage('started');
    expect(await shell.waitMessage('resized')).toEqual({ type: 'resized', cols: 500, rows: 1 });
    shell.send({ type: 'resize', cols: 120, rows: 40 });
    shell.type('stty size\r');
    await shell.waitOutput('40 120');
    shell.socket.close();
    await shell.closed;
  });

  it('refuses a stopped container, and a shell the image lacks, in words', async () => {
    const shell = await open(stoppedId);
    expect((await shell.waitMessage('error')).detail).toMatch(
      new RegExp(`Container ${stopped} is not running \\((created|exited)\\): start it`),
    );
    expect((await shell.closed).code).toBe(4403);

    const bash = await open();
    bash.send(start('/bin/bash'));
    const said = await Promise.race([bash.waitMessage('ended'), bash.waitMessage('error')]);
    expect(said.detail).toMatch(/bin\/bash/);
    await bash.closed;
    await noExecRunning();
  });

  it('refuses a bad start message naming the field', async () => {
    const shell = await open();
    shell.send({ type: 'start', command: '', user: 'no spaces allowed', cols: 80, rows: 24 });
    expect((await shell.waitMessage('error')).detail).toMatch(/^command: /);
    await shell.closed;
  });

  it('kills the process of a socket that drops mid-session, children included', async () => {
    const shell = await open();
    shell.send(start());
    await shell.waitMessage('started');
    // A foreground child that ignores the hang-up, as a long job would.
    shell.type(`trap '' HUP; sleep 4242 & sleep 4343\r`);
    await waitFor('the sleeps to run', () =>
      dockerCli(plain(), ['top', running]).includes('sleep 4343') ? true : undefined,
    );
    await waitFor('only this session running', async () =>
      (await runningExecs(engine, runningId)) === 1 ? true : undefined,
    );
    shell.socket.terminate(); // no close frame: the connection just goes
    await noExecRunning();
    const top = dockerCli(plain(), ['top', running]);
    expect(top).not.toContain('sleep 4242');
    expect(top).not.toContain('sleep 4343');
  });

  it('audits each session: who, container, command, start and end', async () => {
    const shell = await open();
    shell.send(start('/bin/sh -i'));
    await shell.waitMessage('started');
    shell.type('exit\r');
    await shell.closed;
    const api = apiClient(t.app, cookie);
    const rows = await waitFor('both audit rows', async () => {
      const res = await api.get<AuditResponse>('/audit?action=container.exec&limit=50');
      const mine = res.body.entries.filter((e) => e.target === '/bin/sh -i');
      return mine.length >= 2 ? mine : undefined;
    });
    const actions = rows.map((r) => r.action).sort();
    expect(actions).toEqual(['container.exec.end', 'container.exec.start']);
    for (const row of rows)
      expect(row).toMatchObject({ actor: 'admin', host_id: host.id, container_id: runningId });
    expect(rows.find((r) => r.action === 'container.exec.end')?.duration_ms).toBeGreaterThan(0);
  });

  it('refuses viewers always, and operators until the setting allows them', async () => {
    const viewer = await userSignedIn(t.app, cookie, `viewer-${tag}`, 'viewer');
    const operator = await userSignedIn(t.app, cookie, `operator-${tag}`, 'operator');
    const refused = async (as: string) => {
      const shell = await open(runningId, as);
      const detail = (await shell.waitMessage('error')).detail;
      await shell.closed;
      return detail;
    };
    expect(await refused(viewer.cookie)).toBe(
      'Your role "viewer" cannot open container shells; it needs "exec"',
    );
    expect(await refused(operator.cookie)).toMatch(/^Operators cannot open container shells/);
    const api = apiClient(t.app, cookie);
    expect((await api.put('/settings', { exec_operators: true })).status).toBe(200);
    const shell = await open(runningId, operator.cookie);
    shell.send(start());
    await shell.waitMessage('started');
    shell.type('exit\r');
    await shell.closed;
    await api.put('/settings', { exec_operators: false });
    // Recordings are an admin's to read, whatever the shell setting: an operator may not.
    const recordings = await apiClient(t.app, operator.cookie).get('/exec/recordings');
    expect(recordings.status).toBe(403);
  });

  it('refuses an upgrade from a foreign origin before anything, and a socket without a session', async () => {
    const url = `${base.replace('http', 'ws')}/ws/exec?host=${host.id}&container=${runningId}`;
    const status = await new Promise<number>((resolve) => {
      const foreign = new WebSocket(url, { headers: { cookie, origin: 'http://evil.example' } });
      foreign.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      foreign.on('open', () => resolve(101));
    });
    expect(status).toBe(403);
    const anonymous = await openExecClient(base, '', host.id, runningId);
    expect((await anonymous.waitMessage('error')).detail).toBe('Not authenticated');
    expect((await anonymous.closed).code).toBe(4403);
  });
});
