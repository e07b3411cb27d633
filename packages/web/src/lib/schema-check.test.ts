import {
  alertSchema,
  containerSchema,
  containersUpdateSchema,
  eventSchema,
  hostSchema,
  liveMessageSchema,
  preferencesSchema,
} from '@berth/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastCheckCovers, safeParseWith } from './schema-check';

/** Some values zod takes, built from the schema's own sample, changed at random below. */
const container = containerSchema.parse({
  host_id: 'h1',
  host_name: 'one',
  id: 'abc123def456',
  short_id: 'abc123def456',
  name: 'web',
  image: 'busybox:latest',
  state: 'running',
  status: 'Up 2 minutes',
  health: null,
  exit_code: null,
  created: '2026-11-26T10:00:00Z',
  started_at: null,
  restart_policy: 'no',
  ports: ['8080/tcp'],
  volumes: [],
  env: { A: 'b' },
  labels: {},
  tags: ['x'],
  auto_restart: false,
  desired_state: 'unspecified',
  web_ui_url: null,
  auto_update_enabled: false,
  floating_tag_mode: 'exact',
  cpu_percent: 1.5,
  memory_usage: 10,
  memory_limit: null,
  memory_percent: null,
  network_rx: 0,
  network_tx: 0,
  net_bytes_per_sec: null,
});

describe('the fast schema check', () => {
  it('covers the answers and messages checked on every load and every 2 s', () => {
    for (const schema of [
      z.array(containerSchema),
      z.array(hostSchema),
      containersUpdateSchema,
      // What the live client checks every message with: one message type it did not cover
      // (a pattern) sent every message, the full state of 1,000 containers too, to zod.
      liveMessageSchema,
      preferencesSchema,
      eventSchema,
      alertSchema,
    ])
      expect(fastCheckCovers(schema)).toBe(true);
  });

  it('passes a valid container list as it came', () => {
    const list = [container, { ...container, id: 'other' }];
    const read = safeParseWith(z.array(containerSchema), list);
    expect(read.success && read.data).toBe(list);
  });

  it('leaves to zod what it does not take as it came: errors, unknown keys', () => {
    const sleepy = safeParseWith(containerSchema, { ...container, state: 'sleepy' });
    expect(sleepy.success || sleepy.error).toBeInstanceOf(z.ZodError);
    expect(safeParseWith(containerSchema, { ...container, cpu_percent: Infinity }).success).toBe(
      false,
    );
    const extra = safeParseWith(containerSchema, { ...container, surplus: 1 });
    expect(extra.success && extra.data).toEqual(container); // stripped by zod, as before
    expect(safeParseWith(containerSchema, { ...container, ports: [1] }).success).toBe(false);
    expect(fastCheckCovers(z.email())).toBe(false);
    expect(fastCheckCovers(z.string().default('x'))).toBe(false);
  });

  // The property that matters: whatever the fast check passes, zod passes too, unchanged.
  const agrees = (schema: z.ZodType, value: unknown) => {
    const fast = safeParseWith(schema, value);
    const slow = schema.safeParse(value);
    if (fast.success && fast.data === value) {
      expect(slow.success).toBe(true);
      expect(slow.data).toEqual(value);
    } else expect(fast.success).toBe(slow.success);
  };

  it('never passes what zod would refuse or change (containers changed at random)', () => {
    const keys = Object.keys(container);
    fc.assert(
      fc.property(
        fc.constantFrom(...keys, 'surplus'),
        fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.double()),
        (key, value) => {
          agrees(containerSchema, { ...container, [key]: value });
          agrees(z.array(containerSchema), [container, { ...container, [key]: value }]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never passes what zod would refuse or change (any JSON, every live message)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(
          'ping',
          'containers_update',
          'host_removed',
          'new_event',
          'container_recreated',
          'nope',
        ),
        (value, type) => {
          agrees(liveMessageSchema, value);
          agrees(liveMessageSchema, { type, data: value });
          agrees(hostSchema, value);
          agrees(preferencesSchema, value);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('checks a pattern as zod does (a container key: host_id:container_id)', () => {
    const recreated = (key: unknown) => ({
      type: 'container_recreated',
      data: {
        host_id: 'h1',
        old_composite_key: key,
        new_composite_key: 'h1:b',
        container_name: 'web',
      },
    });
    const valid = recreated('h1:abc123def456');
    const read = safeParseWith(liveMessageSchema, valid);
    expect(read.success && read.data).toBe(valid);
    expect(safeParseWith(liveMessageSchema, recreated('no-colon')).success).toBe(false);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}:${b}`),
          fc.jsonValue(),
        ),
        (key) => agrees(liveMessageSchema, recreated(key)),
      ),
      { numRuns: 2000 },
    );
  });
});
