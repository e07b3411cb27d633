import { auditResponseSchema, type AuditQuery } from '@berth/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** One page of the Audit Log; it refreshes every 30 s. */
export const auditLogQueryOptions = (params: Partial<AuditQuery>) =>
  queryOptions({
    queryKey: ['audit-log', params],
    queryFn: () => api('/audit', auditResponseSchema, { params }),
    refetchInterval: 30_000,
    placeholderData: keepPreviousData,
  });

/**
 * The CSV export's address: the server streams the file with the same filters, so the
 * browser downloads it with the session's cookie and nothing is held in the page.
 */
export function auditExportUrl(params: Partial<AuditQuery>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) search.set(key, String(value));
  const query = search.toString();
  return `/api/audit/export.csv${query === '' ? '' : `?${query}`}`;
}
