import { containerKey } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRecord } from '../audit/index.js';
import type { ContainersService } from '../containers/index.js';
import type { EventInput } from '../events/index.js';
import type { Fleet } from '../monitor/index.js';
import { parseCommand } from './commands.js';
import { level } from './topics.js';

export interface CommandDeps {
  fleet: Fleet;
  containers: Pick<ContainersService, 'act'>;
  record: (event: EventInput) => Promise<unknown>;
  audit?: { record(entry: AuditRecord): void } | undefined;
  log: FastifyBaseLogger;
}

/** The actor of actions taken from a command topic, as the event log shows it. */
export const MQTT_ACTOR = 'MQTT';
/** Ignored commands logged as events per minute; a flood beyond is counted in the log only. */
const IGNORED_EVENTS_PER_MINUTE = 30;

/**
 * Carries out start/stop/restart commands from the command topics when actions from MQTT are
 * allowed; otherwise, and for unknown containers or malformed payloads, records why the
 * command was ignored. Nothing a publisher sends can throw out of here.
 */
export class CommandHandler {
  private window = { start: 0, count: 0, dropped: 0 };

  constructor(private readonly deps: CommandDeps) {}

  handle(prefix: string, allowed: boolean, topic: string, payload: Buffer): void {
    try {
      this.run(prefix, allowed, topic, payload);
    } catch (err) {
      this.deps.log.warn({ err, topic }, 'MQTT command failed');
    }
  }

  private run(prefix: string, allowed: boolean, topic: string, payload: Buffer): void {
    const cmd = parseCommand(prefix, topic, payload);
    if (!cmd.ok) {
      this.ignored(cmd.reason, topic);
      return;
    }
    const host = this.deps.fleet.hosts().find((h) => level(h.id) === cmd.hostLevel);
    const c =
      host === undefined
        ? undefined
        : this.deps.fleet.containers(host.id).find((x) => level(x.name) === cmd.nameLevel);
    if (host === undefined || c === undefined) {
      this.ignored(`Unknown container ${cmd.hostLevel}/${cmd.nameLevel}`, topic);
      return;
    }
    const target = { hostId: c.hostId, hostName: c.hostName, id: c.id, name: c.name };
    if (!allowed) {
      this.ignored(`Actions from MQTT are off: ${cmd.action} not carried out`, topic, target);
      return;
    }
    // The containers service records the action with MQTT as its actor; the audit log too.
    const audited = (error: string | null) =>
      this.deps.audit?.record({
        source: 'mqtt',
        actor: MQTT_ACTOR,
        action: `container.${cmd.action}`,
        host_id: c.hostId,
        host_name: c.hostName,
        container_id: c.id,
        container_name: c.name,
        error,
      });
    this.deps.containers.act(c.hostId, c.id, cmd.action, MQTT_ACTOR).then(
      () => audited(null),
      (err: unknown) => {
        const why = err instanceof Error ? err.message : String(err);
        audited(why);
        this.ignored(`${cmd.action} failed: ${why}`, topic, target);
      },
    );
  }

  private ignored(
    reason: string,
    topic: string,
    c?: { hostId: string; hostName: string; id: string; name: string },
  ): void {
    const now = Date.now();
    if (now - this.window.start >= 60_000) {
      if (this.window.dropped > 0)
        this.deps.log.warn(`MQTT: ${this.window.dropped} more ignored commands in the last minute`);
      this.window = { start: now, count: 0, dropped: 0 };
    }
    if (++this.window.count > IGNORED_EVENTS_PER_MINUTE) {
      this.window.dropped++;
      return;
    }
    this.deps
      .record({
        severity: 'warning',
        category: 'system',
        event_type: 'mqtt_command_ignored',
        title: c === undefined ? 'MQTT command ignored' : `MQTT command ignored: ${c.name}`,
        message: `${reason} (topic ${topic.slice(0, 200)})`,
        host_id: c?.hostId ?? null,
        host_name: c?.hostName ?? null,
        container_id: c === undefined ? null : containerKey(c.hostId, c.id),
        container_name: c?.name ?? null,
        triggered_by: MQTT_ACTOR,
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'MQTT: recording an event failed'));
  }
}
