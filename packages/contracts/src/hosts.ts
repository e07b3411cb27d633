import { z } from 'zod';

export const hostStatusSchema = z.enum(['online', 'offline', 'degraded', 'error']);
export type HostStatus = z.infer<typeof hostStatusSchema>;

/** Live host aggregates (spec 1 §3). */
export const hostStatsSchema = z.object({
  cpu_percent: z.number(),
  mem_percent: z.number(),
  mem_bytes: z.number(),
  net_bytes_per_sec: z.number(),
});
export type HostStats = z.infer<typeof hostStatsSchema>;

/** Ring-buffer history series, oldest first. */
export const sparklinesSchema = z.object({
  cpu: z.array(z.number()),
  mem: z.array(z.number()),
  net: z.array(z.number()),
});
export type Sparklines = z.infer<typeof sparklinesSchema>;

/** A registered engine as GET /api/hosts returns it; TLS material is never included. */
export const hostSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  status: hostStatusSchema,
  security_status: z.enum(['secure', 'insecure', 'unknown']),
  tags: z.array(z.string()),
  description: z.string().nullable(),
  os_version: z.string().nullable(),
  docker_version: z.string().nullable(),
  num_cpus: z.number().nullable(),
  total_memory: z.number().nullable(),
  last_checked: z.string().nullable(),
  daemon_started_at: z.string().nullable(),
  container_count: z.number(),
  updates_available: z.number(),
  alerts: z.object({ open: z.number(), snoozed: z.number() }),
  stats: hostStatsSchema.nullable(),
  sparklines: sparklinesSchema.nullable(),
  containers: z.object({ total: z.number(), running: z.number(), stopped: z.number() }),
});
export type Host = z.infer<typeof hostSchema>;
