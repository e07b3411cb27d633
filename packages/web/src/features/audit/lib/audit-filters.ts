import type { AuditQuery } from '@berth/contracts';

/** The Audit Log's filters, kept in the address so a filtered view can be shared. */
export interface AuditFilters {
  user: string;
  action: string;
  target: string;
  result: '' | 'ok' | 'error';
  /** The last this many hours; 0 is all time. */
  hours: number;
}

export const NO_AUDIT_FILTERS: AuditFilters = {
  user: '',
  action: '',
  target: '',
  result: '',
  hours: 0,
};

export const AUDIT_TIME_RANGES = [
  { hours: 1, label: 'Last hour' },
  { hours: 24, label: 'Last 24 hours' },
  { hours: 24 * 7, label: 'Last 7 days' },
  { hours: 24 * 30, label: 'Last 30 days' },
  { hours: 0, label: 'All time' },
] as const;

export function readAuditFilters(params: URLSearchParams): AuditFilters {
  const result = params.get('result');
  const hours = Number(params.get('hours') ?? 0);
  return {
    user: params.get('user') ?? '',
    action: params.get('action') ?? '',
    target: params.get('target') ?? '',
    result: result === 'ok' || result === 'error' ? result : '',
    hours: AUDIT_TIME_RANGES.some((r) => r.hours === hours) ? hours : 0,
  };
}

export function writeAuditFilters(prev: URLSearchParams, f: AuditFilters): URLSearchParams {
  const next = new URLSearchParams(prev);
  const set = (key: string, value: string) => {
    if (value === '') next.delete(key);
    else next.set(key, value);
  };
  set('user', f.user);
  set('action', f.action);
  set('target', f.target);
  set('result', f.result);
  set('hours', f.hours === 0 ? '' : String(f.hours));
  return next;
}

/** The filters as the API reads them; empty ones are left out. */
export function auditQuery(f: AuditFilters, now = Date.now()): Partial<AuditQuery> {
  const q: Partial<AuditQuery> = {};
  if (f.user !== '') q.user = f.user;
  if (f.action !== '') q.action = f.action;
  if (f.target !== '') q.target = f.target;
  if (f.result !== '') q.result = f.result;
  if (f.hours > 0) q.from = new Date(now - f.hours * 3_600_000).toISOString();
  return q;
}
