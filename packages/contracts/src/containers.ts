import { z } from 'zod';

export const containerStateSchema = z.enum([
  'running',
  'paused',
  'stopped',
  'exited',
  'restarting',
  'dead',
  'created',
  'removing',
]);
export type ContainerState = z.infer<typeof containerStateSchema>;

export const containerActionSchema = z.enum([
  'start',
  'stop',
  'restart',
  'pause',
  'unpause',
  'remove',
]);
export type ContainerAction = z.infer<typeof containerActionSchema>;

/** A container as the dashboard and containers screens use it. */
export const containerSchema = z.object({
  host_id: z.string(),
  host_name: z.string(),
  id: z.string(),
  short_id: z.string(),
  name: z.string(),
  image: z.string(),
  state: containerStateSchema,
  status: z.string(),
  created: z.string().nullable(),
  started_at: z.string().nullable(),
  restart_policy: z.string().nullable(),
  cpu_percent: z.number().nullable(),
  memory_usage: z.number().nullable(),
  memory_limit: z.number().nullable(),
  memory_percent: z.number().nullable(),
  network_rx: z.number().nullable(),
  network_tx: z.number().nullable(),
  tags: z.array(z.string()),
  web_ui_url: z.string().nullable(),
  auto_restart: z.boolean(),
  desired_state: z.enum(['should_run', 'on_demand', 'unspecified']),
});
export type Container = z.infer<typeof containerSchema>;
