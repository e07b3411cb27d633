import {
  alertSeveritySchema,
  alertStateSchema,
  type AlertListQuery,
  type AlertListResponse,
  type AlertStats,
} from '@berth/contracts';
import { toAlert, type AlertCounts, type AlertsStore } from './alerts.store.js';

const zeroes = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** Reads alerts for the screens and resolves them when their host goes away. */
export class AlertsService {
  constructor(private readonly store: AlertsStore) {}

  async list(q: AlertListQuery): Promise<AlertListResponse> {
    const { rows, total } = await this.store.list(q);
    return { alerts: rows.map(toAlert), total, page: q.page, page_size: q.page_size };
  }

  async stats(): Promise<AlertStats> {
    const byState = zeroes(alertStateSchema.options);
    for (const [state, n] of await this.store.countBy('state', false)) {
      if (state in byState) byState[state as keyof typeof byState] = n;
    }
    const bySeverity = zeroes(alertSeveritySchema.options);
    for (const [severity, n] of await this.store.countBy('severity', true)) {
      if (severity in bySeverity) bySeverity[severity as keyof typeof bySeverity] = n;
    }
    return { by_state: byState, by_severity: bySeverity };
  }

  countsByHost(): Promise<Map<string, AlertCounts>> {
    return this.store.countsByHost();
  }

  /** Deleting a host resolves its open and snoozed alerts (spec 1 §2). */
  resolveForHost(hostId: string): Promise<number> {
    return this.store.resolveForHost(hostId, 'Host deleted', new Date().toISOString());
  }
}
