// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { deviceName, keyBytes } from './web-push';

describe('deviceName', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
      'Firefox on macOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    ['curl/8.0', 'Browser'],
  ])('%s → %s', (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });
});

describe('keyBytes', () => {
  it('decodes base64url without padding', () => {
    const bytes = new Uint8Array([4, 255, 254, 0, 62, 63, 1]);
    const text = Buffer.from(bytes).toString('base64url');
    expect([...keyBytes(text)]).toEqual([...bytes]);
  });
});

/** Runs public/sw-push.js against a stand-in for the service worker's global scope. */
function worker(
  windows: {
    url: string;
    navigate?: (u: string) => Promise<unknown>;
    /** An open app that routes itself answers the worker's message. */
    routes?: (message: unknown) => void;
  }[] = [],
) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const waits: Promise<unknown>[] = [];
  const clients = {
    matchAll: vi.fn(() =>
      Promise.resolve(
        windows.map((w) => ({
          url: w.url,
          focus() {
            return Promise.resolve(this);
          },
          ...(w.navigate === undefined ? {} : { navigate: w.navigate }),
          postMessage(message: unknown, ports: MessagePort[]) {
            if (w.routes === undefined) return;
            w.routes(message);
            ports[0]?.postMessage('shown');
          },
        })),
      ),
    ),
    openWindow: vi.fn(() => Promise.resolve(null)),
  };
  const self = {
    location: new URL('https://berth.example.com/sw.js'),
    registration: {
      showNotification: (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
        return Promise.resolve();
      },
    },
    clients,
    addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
  };
  const code = readFileSync(new URL('../../../../public/sw-push.js', import.meta.url), 'utf8');
  // The worker file as the browser runs it, its global scope handed in.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const run = new Function('self', code) as (scope: typeof self) => void;
  run(self);
  const fire = async (type: string, event: object) => {
    listeners.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { fire, shown, clients };
}

describe('sw-push.js', () => {
  it('shows a push as a notification carrying the alert link', async () => {
    const w = worker();
    const payload = {
      title: 'CRITICAL: Container stopped - web on h1',
      body: 'Exit code: 137',
      url: '/alerts?alertId=a1',
      tag: 'a1',
      severity: 'critical',
      kind: 'alert',
    };
    await w.fire('push', { data: { json: () => payload, text: () => JSON.stringify(payload) } });
    expect(w.shown).toHaveLength(1);
    expect(w.shown[0]?.title).toBe(payload.title);
    expect(w.shown[0]?.options).toMatchObject({
      body: 'Exit code: 137',
      tag: 'a1',
      data: { url: '/alerts?alertId=a1' },
      requireInteraction: true,
    });
  });

  it('shows a push that is not JSON as text', async () => {
    const w = worker();
    await w.fire('push', {
      data: {
        json: () => {
          throw new SyntaxError('no');
        },
        text: () => 'hello',
      },
    });
    expect(w.shown[0]).toMatchObject({ title: 'Berth', options: { body: 'hello' } });
  });

  it('a tap moves the open app to the alert, or opens it', async () => {
    const navigate = vi.fn(() => Promise.resolve({}));
    const open = worker([{ url: 'https://berth.example.com/containers', navigate }]);
    const notification = { close: vi.fn(), data: { url: '/alerts?alertId=a1' } };
    await open.fire('notificationclick', { notification });
    expect(notification.close).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('https://berth.example.com/alerts?alertId=a1');
    expect(open.clients.openWindow).not.toHaveBeenCalled();

    const closed = worker();
    await closed.fire('notificationclick', { notification });
    expect(closed.clients.openWindow).toHaveBeenCalledWith(
      'https://berth.example.com/alerts?alertId=a1',
    );
  });

  it('asks an open app to route itself, and loads the page only when it does not answer', async () => {
    const navigate = vi.fn(() => Promise.resolve({}));
    const routes = vi.fn();
    const app = worker([{ url: 'https://berth.example.com/containers', navigate, routes }]);
    const notification = { close: vi.fn(), data: { url: '/alerts?alertId=a1' } };
    await app.fire('notificationclick', { notification });
    expect(routes).toHaveBeenCalledWith({
      type: 'berth:open',
      url: 'https://berth.example.com/alerts?alertId=a1',
    });
    expect(navigate).not.toHaveBeenCalled();
    expect(app.clients.openWindow).not.toHaveBeenCalled();
  });

  it('never opens another site from a link', async () => {
    const w = worker();
    await w.fire('notificationclick', {
      notification: { close: vi.fn(), data: { url: 'https://evil.example.net/x' } },
    });
    expect(w.clients.openWindow).toHaveBeenCalledWith('https://berth.example.com/alerts');
  });
});
