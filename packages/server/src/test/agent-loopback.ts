import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { openAgentTunnel, type AgentTunnel } from '../docker/agent-tunnel.js';

/**
 * Berth's end of the agent transport without the app: a WebSocket server on loopback that
 * opens a tunnel on every connection. `nextTunnel()` answers the next agent to connect.
 */
export interface TunnelServer {
  url: string;
  nextTunnel: () => Promise<AgentTunnel>;
  close: () => Promise<void>;
}

export async function startTunnelServer(): Promise<TunnelServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await once(server, 'listening');
  const tunnels: AgentTunnel[] = [];
  const waiting: ((tunnel: AgentTunnel) => void)[] = [];
  server.on('connection', (socket) => {
    const stream = createWebSocketStream(socket);
    stream.on('error', () => undefined);
    const tunnel = openAgentTunnel(stream);
    const waiter = waiting.shift();
    if (waiter === undefined) tunnels.push(tunnel);
    else waiter(tunnel);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/api/agents/connect`,
    nextTunnel: () => {
      const ready = tunnels.shift();
      return ready === undefined
        ? new Promise((resolve) => waiting.push(resolve))
        : Promise.resolve(ready);
    },
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
