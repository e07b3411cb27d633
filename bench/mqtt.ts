// bench/mqtt: what MQTT publishing costs Berth with 1,000 containers (300 running) on ten
// synthetic engines at the 2 s stats interval, against a real local mosquitto. Berth's CPU is
// measured over the same window with MQTT off, then on (discovery on, after its first burst);
// a subscriber counts the messages. Needs a build (`npm run build`) and Debian's mosquitto.
// Prints figures; asserts nothing. Usage: node bench/mqtt.ts [windowSeconds=60]
import { connectAsync } from 'mqtt';
import { startBroker } from '../packages/server/src/test/mosquitto.ts';
import { addEngineHosts, startBerth } from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { cpuTicks, f1, machineSpeedMs, TICK_HZ } from './figures.ts';
import { watchLiveStates } from './live-states.ts';

const WINDOW_S = Number(process.argv[2] ?? 60);
const PORT = 18_870;
const FIRST_ENGINE_PORT = 18_871;
const ENGINES = 10;
const PER_ENGINE = 100;
const RUNNING_PER_ENGINE = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const broker = await startBroker();
  const engines = await startFakeEnginesApart(
    ENGINES,
    FIRST_ENGINE_PORT,
    PER_ENGINE,
    'mq',
    undefined,
    RUNNING_PER_ENGINE,
  );
  // A failed start must not leave the broker behind (the engines end with this process).
  const berth = await startBerth(PORT).catch(async (err: unknown) => {
    await broker.stop();
    throw err;
  });
  const sub = await connectAsync(broker.url);
  try {
    await berth.api('/settings', { polling_interval: 2 }, 'PUT');
    await addEngineHosts(berth, ENGINES, FIRST_ENGINE_PORT, PER_ENGINE, (i) => ({
      name: `mq-${i}`,
    }));
    const pid = berth.child.pid ?? 0;
    const counts = { all: 0, state: 0, discovery: 0, bytes: 0 };
    sub.on('message', (topic, payload) => {
      counts.all++;
      counts.bytes += payload.length;
      if (topic.endsWith('/state')) counts.state++;
      if (topic.startsWith('homeassistant/')) counts.discovery++;
    });
    await sub.subscribeAsync(['berth/#', 'homeassistant/#']);

    const window = async () => {
      const before = { ticks: cpuTicks([pid]), ...counts };
      await sleep(WINDOW_S * 1000);
      return {
        cpu: ((cpuTicks([pid]) - before.ticks) / TICK_HZ / WINDOW_S) * 100,
        perSecond: (counts.all - before.all) / WINDOW_S,
        statePerSecond: (counts.state - before.state) / WINDOW_S,
        kbPerSecond: (counts.bytes - before.bytes) / 1024 / WINDOW_S,
      };
    };

    // Stats are sampled while a browser watches or a module (MQTT) asks for them: one live
    // connection through both windows keeps sampling (and its pushes) alike in each, so the
    // difference is MQTT's publishing.
    const live = watchLiveStates(berth);
    await sleep(10_000);
    const off = await window();
    const put = await berth.api(
      '/integrations/mqtt',
      {
        enabled: true,
        broker_url: broker.url,
        topic_prefix: 'berth',
        discovery_enabled: true,
        discovery_prefix: 'homeassistant',
        allow_actions: false,
      },
      'PUT',
    );
    if (!put.res.ok) throw new Error(`PUT /integrations/mqtt: ${JSON.stringify(put.body)}`);
    const burstStart = counts.all;
    await sleep(10_000);
    const burst = counts.all - burstStart;
    const on = await window();
    live.close();
    const status = (await berth.api('/integrations/mqtt')).body as {
      status: { connected: boolean; messages_published: number };
    };

    console.log(
      `MQTT bench: ${ENGINES} engines x ${PER_ENGINE} containers (${ENGINES * RUNNING_PER_ENGINE} running), 2 s stats interval, ${WINDOW_S} s windows, machine speed ${f1(machineSpeedMs())} ms`,
    );
    console.log(
      `  connected: ${status.status.connected}; first burst (discovery + state): ${burst} messages`,
    );
    console.log(
      `  messages/s: ${f1(on.perSecond)} (state ${f1(on.statePerSecond)}), ${f1(on.kbPerSecond)} KiB/s`,
    );
    console.log(
      `  Berth CPU, % of a core: MQTT off ${f1(off.cpu)}, on ${f1(on.cpu)}, MQTT's share ${f1(on.cpu - off.cpu)}`,
    );
  } finally {
    await sub.endAsync();
    berth.stop();
    await engines.close();
    await broker.stop();
  }
}

await main();
