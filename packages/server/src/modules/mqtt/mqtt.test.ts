import { describe, expect, it } from 'vitest';
import { parseCommand } from './commands.js';
import { containerDiscovery } from './discovery.js';
import { StatePublisher, type FleetPicture } from './publisher.js';
import {
  containerStateTopic,
  level,
  meaningfulChange,
  type ContainerStatePayload,
} from './topics.js';

const cmd = (topic: string, payload: string | Buffer) =>
  parseCommand('berth', topic, typeof payload === 'string' ? Buffer.from(payload) : payload);

describe('command topics', () => {
  it('reads a bare action word or JSON, case and spaces ignored', () => {
    const topic = 'berth/container/h1/web/command';
    expect(cmd(topic, 'restart')).toEqual({
      ok: true,
      hostLevel: 'h1',
      nameLevel: 'web',
      action: 'restart',
    });
    expect(cmd(topic, ' STOP\n')).toMatchObject({ ok: true, action: 'stop' });
    expect(cmd(topic, '{"action":"start"}')).toMatchObject({ ok: true, action: 'start' });
  });

  it('refuses malformed payloads and topics with a reason', () => {
    const topic = 'berth/container/h1/web/command';
    expect(cmd(topic, 'remove')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Unknown action "remove"/),
    });
    expect(cmd(topic, '{"action":')).toMatchObject({
      ok: false,
      reason: 'Payload is not valid JSON',
    });
    expect(cmd(topic, '{"verb":"start"}')).toMatchObject({ ok: false });
    expect(cmd(topic, '')).toMatchObject({ ok: false });
    expect(cmd(topic, Buffer.alloc(65, 0x61))).toMatchObject({
      ok: false,
      reason: 'Payload too long (65 bytes)',
    });
    expect(cmd(topic, Buffer.from([0xff, 0x00]))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Unknown action "\?\?"/),
    });
    expect(cmd('berth/container/h1/web/state', 'start')).toMatchObject({
      ok: false,
      hostLevel: null,
    });
    expect(cmd('berth/container/h1/web/x/command', 'start')).toMatchObject({ ok: false });
    expect(cmd('other/container/h1/web/command', 'start')).toMatchObject({ ok: false });
  });
});

describe('topics and payloads', () => {
  it('keeps host ids and names to one topic level without wildcards', () => {
    expect(level('a/b+c#d e')).toBe('a_b_c_d_e');
    expect(containerStateTopic('berth', 'h/1', 'web')).toBe('berth/container/h_1/web/state');
  });

  it('counts state changes at once and small figure moves as no change', () => {
    const base: ContainerStatePayload = {
      state: 'running',
      health: null,
      cpu_percent: 1.2,
      memory_bytes: 10 * 1048576,
      update_available: false,
      image: 'x',
    };
    expect(meaningfulChange(undefined, base)).toBe(true);
    expect(meaningfulChange(base, { ...base, cpu_percent: 1.5 })).toBe(false);
    expect(meaningfulChange(base, { ...base, cpu_percent: 1.7 })).toBe(true);
    expect(meaningfulChange(base, { ...base, memory_bytes: 11 * 1048576 })).toBe(false);
    expect(meaningfulChange(base, { ...base, memory_bytes: 12 * 1048576 })).toBe(true);
    expect(meaningfulChange(base, { ...base, health: 'unhealthy' })).toBe(true);
    expect(meaningfulChange(base, { ...base, update_available: true })).toBe(true);
    expect(meaningfulChange(base, { ...base, state: 'exited', cpu_percent: null })).toBe(true);
  });

  it('makes each container a device via its host, with sensors and three buttons', () => {
    const msgs = containerDiscovery('homeassistant', 'berth', {
      hostId: 'h1',
      name: 'web',
      image: 'nginx:1',
    });
    expect(msgs.map((m) => m.topic)).toEqual([
      'homeassistant/sensor/berth_h1_web/state/config',
      'homeassistant/sensor/berth_h1_web/health/config',
      'homeassistant/sensor/berth_h1_web/cpu/config',
      'homeassistant/sensor/berth_h1_web/memory/config',
      'homeassistant/binary_sensor/berth_h1_web/update/config',
      'homeassistant/button/berth_h1_web/start/config',
      'homeassistant/button/berth_h1_web/stop/config',
      'homeassistant/button/berth_h1_web/restart/config',
    ]);
    expect(msgs[7]?.payload).toMatchObject({
      unique_id: 'berth_h1_web_restart',
      command_topic: 'berth/container/h1/web/command',
      payload_press: 'restart',
      device: { identifiers: ['berth_h1_web'], via_device: 'berth_host_h1' },
      availability: [{ topic: 'berth/status', payload_available: 'online' }],
    });
  });
});

describe('publishing on change only', () => {
  const picture = (cpu: number, names = ['web']): FleetPicture => ({
    hosts: [{ id: 'h1', name: 'one', status: 'online', cpu: 5, mem: 10 }],
    containers: names.map((name) => ({
      hostId: 'h1',
      name,
      image: 'x',
      state: 'running' as const,
      health: null,
      cpu,
      memory: 1048576,
      updateAvailable: false,
    })),
  });
  const setup = (discovery: string | null) => {
    const sent: { topic: string; payload: string }[] = [];
    let now = 0;
    const p = new StatePublisher(
      { publish: (topic, payload) => sent.push({ topic, payload }) },
      { prefix: 'berth', discoveryPrefix: discovery, staleMs: 30_000, now: () => now },
    );
    return { p, sent, advance: (ms: number) => (now += ms) };
  };

  it('sends state and discovery once, then only what moved', () => {
    const { p, sent } = setup('homeassistant');
    expect(p.pass(picture(1))).toBe(2 + 4 + 8); // two states, host and container discovery
    expect(p.pass(picture(1.2))).toBe(0);
    expect(p.pass(picture(2))).toBe(1);
    expect(sent.at(-1)?.topic).toBe('berth/container/h1/web/state');
  });

  it('sends a slightly moved figure once it has been off for staleMs', () => {
    const { p, advance } = setup(null);
    p.pass(picture(1));
    expect(p.pass(picture(1.2))).toBe(0);
    advance(30_000);
    expect(p.pass(picture(1.2))).toBe(1);
    expect(p.pass(picture(1.2))).toBe(0);
  });

  it('clears the retained state and discovery of a container that is gone', () => {
    const { p, sent } = setup('homeassistant');
    p.pass(picture(1, ['web', 'db']));
    sent.length = 0;
    p.pass(picture(1, ['web']));
    // The host's state says one container fewer; everything else is a clearing.
    expect(sent.filter((m) => m.topic === 'berth/host/h1/state')).toHaveLength(1);
    sent.splice(
      sent.findIndex((m) => m.topic === 'berth/host/h1/state'),
      1,
    );
    expect(sent.every((m) => m.payload === '')).toBe(true);
    expect(sent.map((m) => m.topic)).toContain('berth/container/h1/db/state');
    expect(sent.map((m) => m.topic)).toContain('homeassistant/button/berth_h1_db/restart/config');
    expect(sent).toHaveLength(1 + 8);
  });

  it('publishes everything again after a reset (a reconnect)', () => {
    const { p } = setup(null);
    p.pass(picture(1));
    p.reset();
    expect(p.pass(picture(1))).toBe(2);
  });
});

describe('a first pass over many containers', () => {
  it('sends in parts of at most maxPerPass messages, then nothing is pending', () => {
    const sent: string[] = [];
    const p = new StatePublisher(
      { publish: (topic) => sent.push(topic) },
      { prefix: 'berth', discoveryPrefix: 'ha', staleMs: 30_000, maxPerPass: 100 },
    );
    const picture: FleetPicture = {
      hosts: [{ id: 'h1', name: 'one', status: 'online', cpu: 1, mem: 1 }],
      containers: Array.from({ length: 50 }, (_, i) => ({
        hostId: 'h1',
        name: `c${i}`,
        image: 'x',
        state: 'running' as const,
        health: null,
        cpu: 1,
        memory: 1,
        updateAvailable: false,
      })),
    };
    const parts: number[] = [];
    do parts.push(p.pass(picture));
    while (p.pending);
    expect(Math.max(...parts)).toBeLessThanOrEqual(100);
    expect(sent).toHaveLength(4 + 1 + 50 * 9);
    expect(new Set(sent).size).toBe(sent.length);
  });
});
