import { randomBytes } from 'node:crypto';
import type { AuditResponse, EventsResponse, Host, MqttIntegration } from '@berth/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { startBroker, type TestBroker } from '../../test/mosquitto.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { listedContainer } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let broker: TestBroker;
let sub: MqttClient;
let host: Host;
const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const prefix = `berth-t${tag}`;
const discovery = `ha-t${tag}`;
const name = `berth-mqtt-${tag}`;
const made: string[] = [name];
/** Every message the subscriber got, in order, with when it arrived. */
const seen: { topic: string; payload: string; retain: boolean; at: number }[] = [];

const settings = (more: Record<string, unknown> = {}) => ({
  enabled: true,
  broker_url: broker.url,
  username: '',
  password: '',
  topic_prefix: prefix,
  discovery_enabled: true,
  discovery_prefix: discovery,
  allow_actions: false,
  ...more,
});
const mqttView = async () => (await api.get<MqttIntegration>('/integrations/mqtt')).body;
const connected = () => waitFor('MQTT connected', async () => (await mqttView()).status.connected);
const last = (topic: string) => seen.findLast((m) => m.topic === topic)?.payload;
const stateTopic = () => `${prefix}/container/${host.id}/${name}/state`;
const commandTopic = () => `${prefix}/container/${host.id}/${name}/command`;
const startedAt = () => dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name]);
const ignoredEvents = async () =>
  (await api.get<EventsResponse>('/events?event_type=mqtt_command_ignored&limit=100')).body.events;

/** A fresh client's view of the retained messages under `filter`. */
async function retained(filter: string): Promise<Map<string, string>> {
  const c = await connectAsync(broker.url);
  const got = new Map<string, string>();
  c.on('message', (topic, payload, packet) => {
    if (packet.retain) got.set(topic, payload.toString());
  });
  await c.subscribeAsync(filter);
  await new Promise((r) => setTimeout(r, 300));
  await c.endAsync();
  return got;
}

beforeAll(async () => {
  broker = await startBroker();
  sub = await connectAsync(broker.url);
  sub.on('message', (topic, payload, packet) =>
    seen.push({ topic, payload: payload.toString(), retain: packet.retain, at: Date.now() }),
  );
  await sub.subscribeAsync([`${prefix}/#`, `${discovery}/#`]);
  runBusybox(engine, name);
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  await listedContainer(api, host.id, name);
  expect((await api.put('/integrations/mqtt', settings())).status).toBe(200);
  await connected();
}, 90_000);

afterAll(async () => {
  for (const n of made) dockerCli(engine, ['rm', '-f', n]);
  await sub.endAsync();
  await t.close();
  await broker.stop();
});

describe('MQTT with Home Assistant discovery', { timeout: 60_000 }, () => {
  it('publishes availability, retained state and discovery configs for each container', async () => {
    await waitFor('state published', () => last(stateTopic()));
    expect(last(`${prefix}/status`)).toBe('online');
    expect(JSON.parse(last(stateTopic()) ?? '{}')).toMatchObject({
      state: 'running',
      health: null,
      update_available: false,
    });
    const node = `berth_${host.id.replace(/[^A-Za-z0-9_.-]/g, '_')}_${name}`;
    const cpu = await waitFor('cpu config', () => last(`${discovery}/sensor/${node}/cpu/config`));
    expect(JSON.parse(cpu)).toMatchObject({
      unique_id: `${node}_cpu`,
      state_topic: stateTopic(),
      unit_of_measurement: '%',
      availability: [{ topic: `${prefix}/status` }],
      device: { identifiers: [node], name, via_device: expect.stringMatching(/^berth_host_/) },
    });
    const restart = JSON.parse(last(`${discovery}/button/${node}/restart/config`) ?? '{}');
    expect(restart).toMatchObject({ command_topic: commandTopic(), payload_press: 'restart' });
    expect(last(`${discovery}/sensor/berth_host_${host.id}/status/config`)).toBeDefined();
    expect(JSON.parse(last(`${prefix}/host/${host.id}/state`) ?? '{}')).toMatchObject({
      name: 'plain',
      status: 'online',
    });
  });

  it('publishes the exited state, retained, within 1 s of a docker stop', async () => {
    dockerCli(engine, ['stop', name]);
    const stoppedAt = Date.now();
    const msg = await waitFor(
      'exited published',
      () =>
        seen.find(
          (m) => m.topic === stateTopic() && m.at >= stoppedAt && m.payload.includes('"exited"'),
        ),
      1000,
      10,
    );
    expect(msg.at - stoppedAt).toBeLessThan(1000);
    expect(JSON.parse((await retained(stateTopic())).get(stateTopic()) ?? '{}')).toMatchObject({
      state: 'exited',
      cpu_percent: null,
    });
    dockerCli(engine, ['start', name]);
    await waitFor('running again', () => last(stateTopic())?.includes('"running"'));
  });

  it('ignores a command with an event while actions from MQTT are off', async () => {
    const before = startedAt();
    await sub.publishAsync(commandTopic(), 'restart');
    const event = await waitFor('ignored event', async () =>
      (await ignoredEvents()).find((e) => e.message?.includes('Actions from MQTT are off')),
    );
    expect(event).toMatchObject({ container_name: name, triggered_by: 'MQTT' });
    await new Promise((r) => setTimeout(r, 500));
    expect(startedAt()).toBe(before);
  });

  it('restarts the container on a command when actions are allowed', async () => {
    expect((await api.put('/integrations/mqtt', settings({ allow_actions: true }))).status).toBe(
      200,
    );
    await connected();
    const before = startedAt();
    await sub.publishAsync(commandTopic(), 'restart');
    await waitFor('restarted', () => startedAt() !== before, 30_000);
    // The containers service records the action once the engine answered and it re-read it.
    await waitFor('action event', async () =>
      (
        await api.get<EventsResponse>(`/events?event_type=action_taken&container_name=${name}`)
      ).body.events.some((e) => e.title === `Container restarted by MQTT: ${name}`),
    );
    // And the audit log names MQTT as its initiator.
    await waitFor('audit row', async () =>
      (await api.get<AuditResponse>(`/audit?user=MQTT&action=container.`)).body.entries.some(
        (e) =>
          e.source === 'mqtt' &&
          e.action === 'container.restart' &&
          e.container_name === name &&
          e.ok,
      ),
    );
  });

  it('ignores unknown containers and malformed payloads with an event, and keeps running', async () => {
    await sub.publishAsync(`${prefix}/container/${host.id}/no-such-${tag}/command`, 'stop');
    await sub.publishAsync(commandTopic(), '{"action": ');
    await sub.publishAsync(commandTopic(), 'explode');
    await sub.publishAsync(commandTopic(), Buffer.alloc(5000, 0xff));
    await waitFor('four ignored events', async () => {
      const messages = (await ignoredEvents()).map((e) => e.message ?? '');
      return (
        messages.some((m) => m.startsWith(`Unknown container ${host.id}/no-such-${tag}`)) &&
        messages.some((m) => m.startsWith('Payload is not valid JSON')) &&
        messages.some((m) => m.startsWith('Unknown action "explode"')) &&
        messages.some((m) => m.startsWith('Payload too long'))
      );
    });
    expect((await mqttView()).status.connected).toBe(true);
    expect(dockerCli(engine, ['inspect', '-f', '{{.State.Running}}', name])).toBe('true');
  });

  it('publishes alerts as events, not retained', async () => {
    const alert = { id: `a-${tag}`, title: 'CPU high', state: 'active' };
    // Alerts reach MQTT the way they reach browsers: as the live hub's alert_raised.
    t.app.services.hub.publish({ type: 'alert_raised', data: { alert } } as never);
    const msg = await waitFor('alert event', () =>
      seen.find((m) => m.topic === `${prefix}/events/alert`),
    );
    expect(msg.retain).toBe(false);
    expect(JSON.parse(msg.payload)).toMatchObject({ event: 'raised', id: `a-${tag}` });
  });

  it('reconnects after the broker restarts and republishes availability and state', async () => {
    await broker.kill();
    await waitFor('disconnected', async () => !(await mqttView()).status.connected);
    await broker.start();
    await waitFor('reconnected', async () => (await mqttView()).status.connected, 30_000);
    const got = await waitFor('republished', async () => {
      const r = await retained(`${prefix}/#`);
      return r.get(`${prefix}/status`) === 'online' && r.has(stateTopic()) ? r : undefined;
    });
    expect(JSON.parse(got.get(stateTopic()) ?? '{}')).toMatchObject({ state: 'running' });
    const d = await retained(`${discovery}/#`);
    expect([...d.keys()].some((k) => k.endsWith('/restart/config'))).toBe(true);
  });

  it('masks the password, keeps it on a masked PUT, and seals it at rest', async () => {
    const secret = `pw-${tag}-secret`;
    const put = await api.put<MqttIntegration>(
      '/integrations/mqtt',
      settings({ password: secret }),
    );
    expect(put.body.settings.password).toBe('********');
    await api.put('/integrations/mqtt', settings({ password: '********' }));
    const row = await t.app.services.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'integration_mqtt')
      .executeTakeFirstOrThrow();
    expect(row.value).not.toContain(secret);
    expect((JSON.parse(row.value) as { password_sealed: unknown }).password_sealed).toEqual(
      expect.any(String),
    );
    expect((await mqttView()).settings.password).toBe('********');
    await api.put('/integrations/mqtt', settings({ password: '' }));
    expect((await mqttView()).settings.password).toBe('');
  });

  it('refuses bad settings naming the field', async () => {
    const bad = async (more: Record<string, unknown>) =>
      (await api.put<{ detail: string }>('/integrations/mqtt', settings(more))).body.detail;
    expect(await bad({ broker_url: 'http://x' })).toMatch(/^Broker URL /);
    expect(await bad({ topic_prefix: 'a/#' })).toMatch(/^Topic prefix /);
    expect(await bad({ discovery_prefix: '' })).toMatch(/^Discovery prefix /);
    expect(await bad({ broker_url: '' })).toMatch(/^Broker URL /);
  });

  it('shows why a broker refuses the credentials, and connects once they are right', async () => {
    const locked = await startBroker({ users: { berth: 'right-pass' } });
    try {
      const url = locked.url;
      await api.put(
        '/integrations/mqtt',
        settings({ broker_url: url, username: 'berth', password: 'wrong' }),
      );
      const status = await waitFor('refused', async () => {
        const s = (await mqttView()).status;
        return s.last_error !== null ? s : undefined;
      });
      expect(status.connected).toBe(false);
      expect(status.last_error).toMatch(/not authori[sz]ed|bad user name or password/i);
      await api.put(
        '/integrations/mqtt',
        settings({ broker_url: url, username: 'berth', password: 'right-pass' }),
      );
      await connected();
    } finally {
      await api.put('/integrations/mqtt', settings({ enabled: false }));
      await locked.stop();
    }
  });

  it('shows why a broker that is down cannot be reached', async () => {
    await api.put('/integrations/mqtt', settings({ broker_url: 'mqtt://127.0.0.1:1' }));
    const status = await waitFor(
      'refused',
      async () => (await mqttView()).status.last_error ?? undefined,
    );
    expect(status).toMatch(/ECONNREFUSED/);
    await api.put('/integrations/mqtt', settings({ enabled: false }));
    expect((await mqttView()).status.state).toBe('disabled');
  });

  it('delivers an MQTT notification channel to its topic', async () => {
    const topic = `${prefix}/notifications`;
    const created = await api.post<{ id: number }>('/notifications/channels', {
      name: `mqtt ${tag}`,
      type: 'mqtt',
      config: { broker: broker.url, topic, retain: false },
    });
    expect(created.status).toBe(200);
    const res = await api.post<{ success: boolean; error: string | null }>(
      `/notifications/channels/${created.body.id}/test`,
    );
    expect(res.body).toEqual({ success: true, error: null });
    const msg = await waitFor('notification', () => seen.find((m) => m.topic === topic));
    expect(JSON.parse(msg.payload)).toMatchObject({ kind: 'test' });
    const bad = await api.post<{ detail: string }>('/notifications/channels', {
      name: 'bad',
      type: 'mqtt',
      config: { broker: 'http://x', topic },
    });
    expect(bad.status).toBe(400);
  });
});
