import type {
  ExecRecording,
  ExecRecordingList,
  ExecRecordingsQuery,
  ExecRecordingSummary,
} from '@berth/contracts';
import type { AuditRecord } from '../audit/index.js';
import type { Fleet } from '../monitor/index.js';
import { notFound } from '../../platform/http-errors.js';
import type { ExecStore } from './exec.store.js';

type StoredSummary = Awaited<ReturnType<ExecStore['list']>>[number];

/**
 * What was typed in container shells while recording was on, for admins to read back: the
 * list without the input, one recording with it. Hosts and containers are named as they are
 * now (null once gone); the recording keeps their ids.
 */
export class ExecRecordings {
  constructor(
    private readonly store: ExecStore,
    private readonly fleet: Pick<Fleet, 'host' | 'container'>,
    private readonly audit: { record(entry: AuditRecord): void },
  ) {}

  async list(q: ExecRecordingsQuery): Promise<ExecRecordingList> {
    const [rows, total] = await Promise.all([
      this.store.list(q.limit, q.offset),
      this.store.count(),
    ]);
    return {
      recordings: rows.map((r) => this.summary(r)),
      total,
      limit: q.limit,
      offset: q.offset,
    };
  }

  /** One recording with its input; reading someone's keystrokes is itself audited. */
  async get(id: number, reader: string): Promise<ExecRecording> {
    const row = await this.store.get(id);
    if (row === undefined) throw notFound('Recording not found');
    const recording = { ...this.summary({ ...row, length: row.input.length }), input: row.input };
    this.audit.record({
      source: 'api',
      actor: reader,
      action: 'container.exec.recording.read',
      host_id: row.host_id,
      host_name: recording.host_name,
      container_id: row.container_id,
      container_name: recording.container_name,
      target: `recording ${id} of ${row.actor}`,
    });
    return recording;
  }

  private summary(r: StoredSummary): ExecRecordingSummary {
    return {
      id: r.id,
      started_at: new Date(r.started_at).toISOString(),
      ended_at: new Date(r.ended_at).toISOString(),
      actor: r.actor,
      host_id: r.host_id,
      host_name: this.fleet.host(r.host_id)?.name ?? null,
      container_id: r.container_id,
      container_name: this.fleet.container(r.host_id, r.container_id)?.name ?? null,
      command: r.command,
      length: r.length,
      truncated: r.truncated === 1,
    };
  }
}
