import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LiveClient,
  liveUrl,
  reconnectDelay,
  type LiveStatus,
  type SocketLike,
} from './live-client';
import { routeLiveMessage } from './live-routing';

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  sent: string[] = [];
  closed = false;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.onclose?.(new Event('close') as CloseEvent);
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  receive(data: string) {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
}

let sockets: FakeSocket[];
let statuses: LiveStatus[];
let messages: unknown[];
let log: {
  warn: ReturnType<typeof vi.fn<(m: string) => void>>;
  error: ReturnType<typeof vi.fn<(m: string) => void>>;
};
let client: LiveClient;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  statuses = [];
  messages = [];
  log = { warn: vi.fn<(m: string) => void>(), error: vi.fn<(m: string) => void>() };
  client = new LiveClient({
    url: () => 'ws://test/ws/',
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    onStatus: (s) => statuses.push(s),
    onMessage: (m) => messages.push(m),
    log,
  });
});
afterEach(() => {
  client.stop();
  vi.useRealTimers();
});

const last = () => sockets[sockets.length - 1] ?? new FakeSocket();

describe('LiveClient', () => {
  it('grows the reconnect delay by 1.5 from 3000 ms up to 30000 ms', () => {
    expect([0, 1, 2, 3].map(reconnectDelay)).toEqual([3000, 4500, 6750, 10125]);
    expect(reconnectDelay(9)).toBe(30_000);
  });

  it('reconnects after a close with backoff and gives up after 10 attempts', () => {
    client.start();
    last().open();
    expect(statuses.at(-1)).toBe('connected');
    last().close();
    expect(statuses.at(-1)).toBe('disconnected');
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(2999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    for (let attempt = 1; attempt < 10; attempt++) {
      last().close();
      vi.advanceTimersByTime(reconnectDelay(attempt));
    }
    expect(sockets).toHaveLength(11);
    last().close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(11);
  });

  it('resets the attempts once a connection opens', () => {
    client.start();
    last().close();
    vi.advanceTimersByTime(3000);
    last().open();
    last().close();
    vi.advanceTimersByTime(3000);
    expect(sockets).toHaveLength(3);
  });

  it('pings every 30 s and reconnects when no pong arrives within 5 s', () => {
    client.start();
    last().open();
    vi.advanceTimersByTime(30_000);
    expect(last().sent).toEqual(['{"type":"ping"}']);
    last().receive('{"type":"pong"}');
    vi.advanceTimersByTime(5000);
    expect(last().closed).toBe(false);
    vi.advanceTimersByTime(25_000);
    vi.advanceTimersByTime(5000);
    expect(sockets[0]?.closed).toBe(true);
    vi.advanceTimersByTime(3000);
    expect(sockets).toHaveLength(2);
  });

  it('ignores malformed messages and warns about unknown types', () => {
    client.start();
    last().open();
    last().receive('not json');
    last().receive('{"type":"host_removed","data":{}}');
    last().receive('{"type":"mystery"}');
    last().receive('{"type":"host_removed","data":{"host_id":"h1"}}');
    expect(messages).toEqual([{ type: 'host_removed', data: { host_id: 'h1' } }]);
    expect(log.error).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledWith('live: unknown message type mystery');
  });
});

describe('routeLiveMessage', () => {
  it('refreshes what the spec table names', () => {
    const qc = new QueryClient();
    const spy = vi.spyOn(qc, 'invalidateQueries');
    routeLiveMessage({ type: 'host_removed', data: { host_id: 'h1' } }, qc);
    expect(spy.mock.calls.map((c) => c[0]?.queryKey)).toEqual([['hosts'], ['containers']]);
    spy.mockClear();
    routeLiveMessage(
      { type: 'blackout_status_changed', data: { is_blackout: true, window_name: null } },
      qc,
    );
    expect(spy.mock.calls.map((c) => c[0]?.queryKey)).toEqual([['settings']]);
    spy.mockClear();
    routeLiveMessage(
      {
        type: 'batch_job_update',
        data: {
          job_id: 'j',
          status: 'running',
          action: 'start',
          total_items: 1,
          completed_items: 0,
          success_items: 0,
          error_items: 0,
          skipped_items: 0,
          created_at: '2026-11-22T10:00:00.000Z',
          completed_at: null,
        },
      },
      qc,
    );
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('liveUrl', () => {
  it('opts in to the delta protocol, over wss on an https page, with or without sparklines', () => {
    expect(liveUrl({ protocol: 'http:', host: 'berth:8080' })).toBe(
      'ws://berth:8080/ws/?protocol=2',
    );
    expect(liveUrl({ protocol: 'https:', host: 'berth.example' }, false)).toBe(
      'wss://berth.example/ws/?protocol=2&sparklines=0',
    );
  });
});
