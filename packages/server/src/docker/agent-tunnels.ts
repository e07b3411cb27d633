import { agentNotConnected, type AgentTunnel, type EngineDialer } from './agent-tunnel.js';

/**
 * The live tunnel of every connected agent, by agent id. A host's engine is dialled through
 * here at each connection, so an agent that reconnects is used at once and one that is gone
 * fails the call with "The agent is not connected".
 */
export class AgentTunnels {
  private readonly live = new Map<string, AgentTunnel>();

  /** False when the agent already has a live tunnel: one connection per agent. */
  attach(agentId: string, tunnel: AgentTunnel): boolean {
    if (this.live.has(agentId)) return false;
    this.live.set(agentId, tunnel);
    const forget = () => {
      if (this.live.get(agentId) === tunnel) this.live.delete(agentId);
    };
    tunnel.closed.then(forget, forget);
    return true;
  }

  isConnected(agentId: string): boolean {
    return this.live.has(agentId);
  }

  dialerOf(agentId: string): EngineDialer {
    return () => this.live.get(agentId)?.dial() ?? agentNotConnected();
  }

  /** Closes an agent's connection (its host was deleted). */
  close(agentId: string): void {
    this.live.get(agentId)?.close();
  }

  closeAll(): void {
    for (const tunnel of this.live.values()) tunnel.close();
  }
}
