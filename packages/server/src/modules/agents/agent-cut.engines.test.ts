import { randomBytes } from 'node:crypto';
import type { EventsResponse } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer } from '../../test/rig-images.js';
import { openTransportHost, type TransportHost } from '../../test/transports.js';
import { waitFor } from '../../test/wait.js';

// A 20 s cut of the agent's path to Berth: a proxy between them stops forwarding without
// closing anything, as a dead route or a stuck NAT does, then lets traffic through again.
const CUT_MS = 20_000;
/** The entries that record a state change: events that decide one, and drift. */
const STATE_TYPES = ['started', 'died', 'state_change'];
const made: string[] = [];
const cli = (args: string[]) => dockerCli(rigEngine('plain'), args);
let h: TransportHost;

beforeAll(async () => {
  h = await openTransportHost('agent');
}, 120_000);
afterAll(async () => {
  for (const name of made) cli(['rm', '-f', name]);
  await h.close();
});

describe('an agent whose connection is cut for 20 s', () => {
  it('shows offline within 10 s, comes back, and logs every state change of the cut', async () => {
    const name = () => {
      const n = `berth-cut-${randomBytes(4).toString('hex')}`;
      made.push(n);
      return n;
    };
    const [stopped, flapped] = [name(), name()];
    const idle = [readRig().images.busybox, 'sh', '-c', "trap 'exit 0' TERM; sleep 600 & wait"];
    cli(['run', '-d', '--name', stopped, ...idle]);
    cli(['create', '--name', flapped, ...idle]);
    await Promise.all([stopped, flapped].map((n) => listedContainer(h.api, h.host.id, n)));

    const cutAt = Date.now();
    h.proxy.cut();
    // One change before Berth can know of the cut: its event is lost on the dead path.
    cli(['stop', stopped]);
    const offline = await h.waitForStatus('offline', 10_000);
    expect(offline.error).toBeTruthy();
    // Two while the host shows offline: the list before and after looks the same for this
    // one (not running), so only the engine's own events can tell what happened.
    cli(['start', flapped]);
    cli(['kill', flapped]);
    await new Promise((resolve) => setTimeout(resolve, cutAt + CUT_MS - Date.now()));
    h.proxy.restore();

    // The agent redials through the proxy by itself (its backoff, up to 4 s at this point).
    await h.waitForStatus('online', 30_000);
    const during = async () =>
      (await h.api.get<EventsResponse>(`/events/host/${h.host.id}?limit=200`)).body.events.filter(
        (e) => Date.parse(e.timestamp) >= cutAt - 1000,
      );
    const typesOf = (events: Awaited<ReturnType<typeof during>>, container: string) =>
      events.filter((e) => e.container_name === container).map((e) => e.event_type);
    const events = await waitFor('the cut replayed into the event log', async () => {
      const all = await during();
      const flaps = typesOf(all, flapped);
      return typesOf(all, stopped).includes('stopped') &&
        flaps.includes('started') &&
        flaps.includes('died')
        ? all
        : undefined;
    });
    expect(typesOf(events, stopped)).toEqual(expect.arrayContaining(['stopped', 'died']));
    expect(typesOf(events, flapped)).toEqual(expect.arrayContaining(['started', 'killed', 'died']));
    // Each change once, with the state it left: the replay is in before the reconnect's
    // relist, which once logged these as drift ("Detected after reconnecting") as well.
    // (`stop` may be stamped before or after its `die`, so its old state is not checked.)
    const changes = (container: string) =>
      events
        .filter((e) => e.container_name === container && Date.parse(e.timestamp) >= cutAt)
        .filter((e) => STATE_TYPES.includes(e.event_type))
        .map((e) => `${e.event_type} ${e.old_state}>${e.new_state}`)
        .sort();
    expect(changes(stopped)).toEqual(['died running>exited']);
    expect(typesOf(events, stopped).filter((type) => type === 'stopped')).toHaveLength(1);
    expect(changes(flapped)).toEqual(['died running>exited', 'started created>running']);
  }, 90_000);
});
