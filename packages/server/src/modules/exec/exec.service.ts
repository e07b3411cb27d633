import {
  execClientMessageSchema,
  execStartSchema,
  type UserRole,
  type WritableSettings,
} from '@berth/contracts';
import type { AuditService } from '../audit/index.js';
import { mayExec } from '../auth/index.js';
import type { Fleet } from '../monitor/index.js';
import { ExecSession, type ExecPeer, type SessionEnd } from './exec-session.js';
import type { ExecStore } from './exec.store.js';

export interface ExecServiceDeps {
  fleet: Fleet;
  settings: { get(): WritableSettings };
  audit: AuditService;
  store: ExecStore;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Who opens a shell, as the socket route authenticated them. */
export interface ExecCaller {
  username: string;
  role: UserRole;
  reachesHost: (hostId: string) => boolean;
  address: string;
  userAgent: string | null;
}

/** A refusal or failure worded for the terminal. */
export class ExecRefusal extends Error {}

/** What every audit row of one session says. */
interface SessionTrail {
  source: 'api';
  actor: string;
  host_id: string;
  container_id: string;
  target: string;
  address: string;
  user_agent: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A command that ends this soon with one of these codes most likely was never found. */
const NOT_FOUND_CODES = new Set([126, 127]);
const NOT_FOUND_WITHIN_MS = 3_000;

/**
 * Container shells: who may open one, on what, the session itself (exec-session.ts), and its
 * trail: an audit row when it starts and one when it ends, and, only while the setting is
 * on, the recording of what was typed (kept for its retention).
 */
export class ExecService {
  private readonly open = new Set<ExecSession>();

  constructor(private readonly deps: ExecServiceDeps) {}

  /** Sessions running now (tests and the graceful stop read it). */
  get sessions(): number {
    return this.open.size;
  }

  /** Checks the caller and the container; answers what the session needs, or refuses. */
  target(caller: ExecCaller, hostId: string, containerId: string) {
    const settings = this.deps.settings.get();
    if (!mayExec(caller.role, settings.exec_operators)) {
      throw new ExecRefusal(
        caller.role === 'operator'
          ? 'Operators cannot open container shells: an admin has not allowed it (Settings → Security)'
          : `Your role "${caller.role}" cannot open container shells; it needs "exec"`,
      );
    }
    const host = this.deps.fleet.host(hostId);
    // A host out of reach reads exactly like a missing one.
    if (host === undefined || !caller.reachesHost(hostId)) throw new ExecRefusal('Host not found');
    const c = this.deps.fleet.container(hostId, containerId);
    if (c === undefined) throw new ExecRefusal('Container not found');
    if (c.state !== 'running')
      throw new ExecRefusal(
        `Container ${c.name} is not running (${c.state}): start it to open a shell`,
      );
    const engine = this.deps.fleet.engine(hostId, { purpose: 'query' });
    if (engine === null) throw new ExecRefusal(`Host ${host.name} is offline`);
    return { host, container: c, engine, idleMs: settings.exec_idle_minutes * 60_000 };
  }

  /**
   * Starts a session from the browser's first message; the peer hears 'started' or an
   * error, and 'ended' when it is over. Resolves with the session, or null when it failed.
   */
  async start(
    caller: ExecCaller,
    target: ReturnType<ExecService['target']>,
    raw: unknown,
    peer: ExecPeer & { close(): void },
  ): Promise<ExecSession | null> {
    const parsed = execStartSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      peer.send({
        type: 'error',
        detail: `${issue?.path.join('.') ?? 'message'}: ${issue?.message ?? 'invalid'}`,
      });
      peer.close();
      return null;
    }
    const { container, host, engine, idleMs } = target;
    const record = this.deps.settings.get().exec_recording;
    const base: SessionTrail = {
      source: 'api',
      actor: caller.username,
      host_id: host.id,
      container_id: container.id,
      target: parsed.data.command.slice(0, 200),
      address: caller.address,
      user_agent: caller.userAgent,
    };
    const session = new ExecSession({
      engine,
      containerId: container.fullId,
      containerName: container.name,
      peer,
      idleMs,
      record,
      log: this.deps.log,
      onEnd: (end) => {
        this.open.delete(session);
        this.ended(end, base, record, peer);
      },
    });
    this.open.add(session);
    try {
      await session.start(parsed.data);
    } catch (err) {
      this.open.delete(session);
      const detail = refusalOf(err, container.name, host.name);
      this.deps.audit.record({ ...base, action: 'container.exec.start', ok: false, error: detail });
      peer.send({ type: 'error', detail });
      peer.close();
      // The exec was created but its start failed: make sure nothing is left.
      if (session.created) await session.finish('engine').catch(() => undefined);
      return null;
    }
    this.deps.audit.record({ ...base, action: 'container.exec.start' });
    return session;
  }

  /** Parses one later message of the browser; null for one that is not understood. */
  static control(raw: unknown) {
    const parsed = execClientMessageSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }

  /** Ends every session (the server stops): each process is killed, each end audited. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.finish('server')));
  }

  private ended(
    end: SessionEnd,
    base: SessionTrail,
    record: boolean,
    peer: ExecPeer & { close(): void },
  ): void {
    const detail = endDetail(end);
    this.deps.audit.record({
      ...base,
      action: 'container.exec.end',
      at: end.endedAt,
      duration_ms: end.endedAt - end.startedAt,
      ok: end.reaped,
      error: end.reaped ? null : 'The shell process could not be confirmed ended',
    });
    peer.send({ type: 'ended', reason: end.reason, exit_code: end.exitCode, detail });
    peer.close();
    if (record)
      this.keep(end, base).catch((err: unknown) => {
        this.deps.log.error({ err }, 'storing a container shell recording failed');
      });
  }

  private async keep(end: SessionEnd, base: SessionTrail) {
    const days = this.deps.settings.get().exec_recording_days;
    await this.deps.store.pruneOlderThan(Date.now() - days * DAY_MS);
    await this.deps.store.insert({
      started_at: end.startedAt,
      ended_at: end.endedAt,
      actor: base.actor,
      host_id: base.host_id,
      container_id: base.container_id,
      command: end.command.join(' '),
      input: end.input,
      truncated: end.inputTruncated ? 1 : 0,
    });
  }
}

/** What the terminal says when a session ends. */
function endDetail(end: SessionEnd): string {
  const command = end.command.join(' ');
  switch (end.reason) {
    case 'exited':
      if (
        end.exitCode !== null &&
        NOT_FOUND_CODES.has(end.exitCode) &&
        end.endedAt - end.startedAt < NOT_FOUND_WITHIN_MS
      )
        return `"${command}" could not run in this container (exit ${end.exitCode}): the image may not have it; pick another shell`;
      return `The shell exited${end.exitCode === null ? '' : ` with code ${end.exitCode}`}`;
    case 'idle':
      return 'The session ended after being idle (Settings → Security sets how long)';
    case 'closed':
      return 'The connection closed; the shell was ended';
    case 'engine':
      return 'The engine ended the session';
    case 'server':
      return 'Berth is stopping; the shell was ended';
  }
}

/** An engine's refusal to create or start an exec, in words for the terminal. */
export function refusalOf(err: unknown, container: string, host: string): string {
  const status = (err as { statusCode?: unknown }).statusCode;
  const message = engineMessage(err);
  if (status === 403) return `${host}: ${message || 'the engine refused the shell'}`;
  if (status === 409) return `Container ${container} is not running: start it to open a shell`;
  if (status === 404) return 'Container not found';
  if (status === 400 || status === 500) return `The engine could not open the shell: ${message}`;
  return `Could not reach the engine of ${host}: ${message}`;
}

function engineMessage(err: unknown): string {
  const json = (err as { json?: unknown }).json;
  if (typeof json === 'object' && json !== null && 'message' in json) {
    const m = json.message;
    if (typeof m === 'string') return m;
  }
  return err instanceof Error ? err.message : String(err);
}
