import type { AgentCapability } from '@berth/contracts';
import {
  AGENT_NOT_CONNECTED,
  agentNotConnected,
  type AgentCall,
  type AgentTunnel,
  type EngineDialer,
} from './agent-tunnel.js';
import { EngineError } from './engine-errors.js';

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

  /** What a connected agent announced it can do; nothing when it is not connected. */
  capabilitiesOf(agentId: string): readonly AgentCapability[] {
    return this.live.get(agentId)?.capabilities ?? [];
  }

  dialerOf(agentId: string): EngineDialer {
    return () => this.live.get(agentId)?.dial() ?? agentNotConnected();
  }

  /** A request to a connected agent itself; fails at once when it is not connected. */
  request(agentId: string, call: AgentCall): Promise<unknown> {
    const tunnel = this.live.get(agentId);
    return tunnel === undefined
      ? Promise.reject(new EngineError(AGENT_NOT_CONNECTED))
      : tunnel.request(call);
  }

  /** Closes an agent's connection (its host was deleted). */
  close(agentId: string): void {
    this.live.get(agentId)?.close();
  }

  closeAll(): void {
    for (const tunnel of this.live.values()) tunnel.close();
  }
}
