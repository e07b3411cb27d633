import { containerKey } from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import { restoreBackup, type Backup } from './restore.js';
import { parseBackupName, type UpdatesContext } from './updates-context.js';

/**
 * Updates cut short. The ones this process saw lose their engine are remembered and finished
 * when the host returns (new container removed, old one named and running as before); a
 * backup left by any other interruption (Berth itself went down) gets its name back when the
 * name is free. Never removes the old container.
 */
export class InterruptedUpdates {
  private readonly pending = new Map<string, Backup[]>();

  constructor(private readonly ctx: UpdatesContext) {}

  remember(hostId: string, backup: Backup): void {
    this.pending.set(hostId, [...(this.pending.get(hostId) ?? []), backup]);
  }

  async recover(hostId: string): Promise<void> {
    const r = this.ctx.r;
    const engine = r.fleet.engine(hostId, { purpose: 'action' });
    if (engine === null) return;
    const hostName = r.fleet.host(hostId)?.name ?? null;
    const event = (name: string, id: string, title: string, message: string) =>
      r.record({
        category: 'container',
        host_id: hostId,
        host_name: hostName,
        container_id: containerKey(hostId, id.slice(0, 12)),
        container_name: name,
        triggered_by: 'system',
        severity: 'warning',
        event_type: 'update_interrupted',
        title,
        message,
      });

    const waiting = this.pending.get(hostId) ?? [];
    this.pending.delete(hostId);
    for (const b of waiting) {
      const { problems, unreachable } = await restoreBackup(engine, b);
      if (unreachable) {
        this.remember(hostId, b);
        continue;
      }
      await event(
        b.name,
        b.oldId,
        problems.length === 0
          ? `Container ${b.name} restored after an interrupted update`
          : `Container ${b.name} only partly restored after an interrupted update`,
        problems.length === 0
          ? `The engine was lost during the update; the previous container is back${b.wasRunning ? ' and running' : ''}.`
          : problems.join('; '),
      );
    }

    const all = await engine.listContainers();
    const names = new Set(all.flatMap((c) => c.Names.map((n) => n.replace(/^\//, ''))));
    for (const c of all) {
      const name = c.Names[0]?.replace(/^\//, '') ?? '';
      const parsed = parseBackupName(name);
      if (parsed === null || this.ctx.isUpdating(hostId, parsed.original)) continue;
      const { original, since } = parsed;
      if (names.has(original)) {
        await event(
          original,
          c.Id,
          `Backup ${name} of ${original} left by an interrupted update`,
          `Both ${original} and ${name} exist; check ${original} and remove the backup.`,
        );
        continue;
      }
      await engine.renameContainer(c.Id, original);
      names.add(original);
      const started = await startIfStoppedByUpdate(engine, c.Id, since);
      await event(
        original,
        c.Id,
        `Container ${original} restored after an interrupted update`,
        `The update was cut short; ${name} got its name back${started ? ' and runs again' : ''}.`,
      );
    }
  }
}

/** How long after an update began its stop of the old container can have finished. */
const STOP_WINDOW_MS = 10 * 60_000;

/**
 * A backup left by an update Berth did not see end (Berth itself went down) was stopped by
 * that update if it stopped after the update began (the time in its name): it ran before,
 * so it runs again. One stopped earlier was stopped by its operator and stays stopped.
 */
async function startIfStoppedByUpdate(engine: Engine, id: string, since: number): Promise<boolean> {
  const info = await engine.inspectContainer(id);
  const finished = Date.parse(info.State.FinishedAt);
  if (info.State.Running || !(finished >= since && finished <= since + STOP_WINDOW_MS))
    return false;
  await engine.startContainer(id);
  return true;
}
