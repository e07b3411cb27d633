import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startHeartbeat } from './heartbeat.js';
import { FAST_RETRY_WINDOW_MS, nextDialDelayMs, retryDelayMs } from './run.js';

it('cuts a connection whose far end stopped answering pings', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await once(server, 'listening');
  try {
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await once(socket, 'open');
    const started = performance.now();
    startHeartbeat(socket, 100);
    await once(socket, 'close');
    // The first ping goes out at 100 ms, and is found unanswered at 200 ms.
    expect(performance.now() - started).toBeLessThan(1000);
  } finally {
    for (const client of server.clients) client.terminate();
    server.close();
  }
});

it('keeps a connection whose far end answers', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  try {
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await once(socket, 'open');
    startHeartbeat(socket, 50);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  } finally {
    for (const client of server.clients) client.terminate();
    server.close();
  }
});

it('backs off from 1 s to 30 s, each delay drawn between half and all of its ceiling', () => {
  expect([0, 1, 2, 5, 10].map((n) => retryDelayMs(n, () => 1))).toEqual([
    1000, 2000, 4000, 30_000, 30_000,
  ]);
  expect([0, 5].map((n) => retryDelayMs(n, () => 0))).toEqual([500, 15_000]);
});

it('redials at the first step for a minute after losing a working connection, then backs off', () => {
  const delay = (attempt: number, sinceLoss: number | null) =>
    nextDialDelayMs(attempt, sinceLoss, () => 1);
  expect(delay(6, 5_000)).toEqual({ delayMs: 1000, backingOff: false });
  expect(delay(6, FAST_RETRY_WINDOW_MS - 1)).toEqual({ delayMs: 1000, backingOff: false });
  expect(delay(0, FAST_RETRY_WINDOW_MS)).toEqual({ delayMs: 1000, backingOff: true });
  expect(delay(3, FAST_RETRY_WINDOW_MS + 1)).toEqual({ delayMs: 8000, backingOff: true });
  // Never connected: Berth unreachable from the start backs off at once.
  expect(delay(3, null)).toEqual({ delayMs: 8000, backingOff: true });
});
