import type WebSocket from 'ws';

/** How often the agent pings Berth; a connection that missed one answer is cut at the next. */
export const AGENT_HEARTBEAT_MS = 3000;

/**
 * Pings Berth every `intervalMs`; a ping still unanswered at the next one means the path is
 * dead (a cut, a proxy that stopped forwarding) and the socket is cut, so the agent
 * reconnects instead of waiting for TCP to notice.
 */
export function startHeartbeat(socket: WebSocket, intervalMs = AGENT_HEARTBEAT_MS): void {
  let answered = true;
  socket.on('pong', () => (answered = true));
  const timer = setInterval(() => {
    if (!answered) {
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, intervalMs);
  socket.once('close', () => clearInterval(timer));
}
