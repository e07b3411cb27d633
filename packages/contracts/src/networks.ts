import { z } from 'zod';
import { parseAddress, parseSubnet, subnetContains } from './ip-network.js';
import { lazySchema } from './lazy-schema.js';
import {
  resourceDependantSchema,
  driverNameSchema,
  engineNameSchema,
  resourceHostReadSchema,
  engineStringMapSchema,
} from './volumes.js';

/** The engine's own networks: it refuses to remove them, and so does Berth before asking. */
export const BUILTIN_NETWORKS: readonly string[] = ['bridge', 'host', 'none'];

export const networkSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    host_name: z.string(),
    /** Full id. */
    id: z.string(),
    name: z.string(),
    driver: z.string(),
    scope: z.string(),
    created: z.string().nullable(),
    internal: z.boolean(),
    attachable: z.boolean(),
    /** Each IPAM configuration: a subnet and its gateway, either possibly unset. */
    subnets: z.array(z.object({ subnet: z.string().nullable(), gateway: z.string().nullable() })),
    labels: z.record(z.string(), z.string()),
    /** bridge, host, none: cannot be removed. */
    builtin: z.boolean(),
    /** Containers (whatever their state) whose settings name it. Empty: unused. */
    in_use_by: z.array(resourceDependantSchema),
  }),
);
export type Network = z.infer<typeof networkSchema>;

export const networksQuerySchema = lazySchema(() =>
  z.strictObject({ host: z.string().min(1).max(100).optional() }),
);
export type NetworksQuery = z.infer<typeof networksQuerySchema>;

export const networksResponseSchema = lazySchema(() =>
  z.object({ networks: z.array(networkSchema), hosts: z.array(resourceHostReadSchema) }),
);
export type NetworksResponse = z.infer<typeof networksResponseSchema>;

/** A network by id (full or short) or name. */
export const networkParamsSchema = lazySchema(() =>
  z.strictObject({ hostId: z.string().min(1).max(100), id: z.string().min(1).max(255) }),
);

export const networkDetailsSchema = lazySchema(() =>
  z.object({ network: networkSchema, raw: z.record(z.string(), z.unknown()) }),
);
export type NetworkDetails = z.infer<typeof networkDetailsSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v === '' ? undefined : v));

/**
 * A new network. A gateway needs its subnet and must lie inside it; both are checked here so
 * the form and the server refuse the same input with the same words.
 */
export const networkCreateSchema = lazySchema(() =>
  z
    .strictObject({
      name: engineNameSchema,
      driver: driverNameSchema.default('bridge'),
      subnet: optionalText(64),
      gateway: optionalText(64),
      internal: z.boolean().default(false),
      attachable: z.boolean().default(false),
      labels: engineStringMapSchema.default({}),
    })
    .superRefine((body, ctx) => {
      const subnet = body.subnet === undefined ? undefined : parseSubnet(body.subnet);
      if (subnet !== undefined && 'error' in subnet)
        ctx.addIssue({ code: 'custom', path: ['subnet'], message: subnet.error });
      if (body.gateway === undefined) return;
      const gateway = parseAddress(body.gateway);
      if (gateway === null)
        ctx.addIssue({ code: 'custom', path: ['gateway'], message: 'must be an IP address' });
      else if (subnet === undefined)
        ctx.addIssue({ code: 'custom', path: ['gateway'], message: 'needs a subnet' });
      else if (!('error' in subnet) && !subnetContains(subnet, gateway))
        ctx.addIssue({
          code: 'custom',
          path: ['gateway'],
          message: `must lie inside the subnet ${body.subnet ?? ''}`,
        });
    }),
);
export type NetworkCreate = z.input<typeof networkCreateSchema>;

export const networkCreatedSchema = lazySchema(() =>
  z.object({ id: z.string(), name: z.string(), host_id: z.string() }),
);
export type NetworkCreated = z.infer<typeof networkCreatedSchema>;

export const networkRemovedSchema = lazySchema(() =>
  z.object({ id: z.string(), name: z.string() }),
);
export type NetworkRemoved = z.infer<typeof networkRemovedSchema>;

/** GET …/prune/networks: the networks a prune would remove now. */
export const networkPrunePreviewSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    networks: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
);
export type NetworkPrunePreview = z.infer<typeof networkPrunePreviewSchema>;

/** POST …/prune/networks: the ids the preview showed; only those, and only if still unused. */
export const networkPruneBodySchema = lazySchema(() =>
  z.strictObject({ ids: z.array(z.string().min(1).max(255)).min(1).max(5000) }),
);
export type NetworkPruneBody = z.infer<typeof networkPruneBodySchema>;
