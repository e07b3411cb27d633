import { Readable } from 'node:stream';
import {
  AUDIT_EXPORT_MAX_ROWS,
  auditExportQuerySchema,
  auditQuerySchema,
  auditResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { csvHeader, csvRows } from './audit-csv.js';
import type { AuditService } from './audit.service.js';

/**
 * The audit log's only routes: a filtered page and the CSV export. Both read; nothing
 * changes a row (a test walks the route table to keep it so).
 */
export function auditRoutes(app: FastifyInstance, opts: { audit: AuditService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/audit',
    { schema: { querystring: auditQuerySchema, response: { 200: auditResponseSchema } } },
    (request) => opts.audit.query(request.query),
  );
  api.get(
    '/audit/export.csv',
    { schema: { querystring: auditExportQuerySchema } },
    (request, reply) => {
      const pages = opts.audit.export(request.query, AUDIT_EXPORT_MAX_ROWS);
      async function* lines() {
        yield csvHeader();
        for await (const page of pages) yield csvRows(page);
      }
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="berth-audit-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );
}
