import { AgentWireError } from '@berth/contracts/agent-wire';
import { AgentRequestError } from '../agent-api.js';

/**
 * A request's body as its reader (from the contracts' agent wire) has it, or a 400 naming the
 * bad field ("url: Must be an http:// or https:// address"), so Berth's log says what it sent
 * wrong.
 */
export function parseBody<T>(read: (body: unknown) => T, body: unknown): T {
  try {
    return read(body);
  } catch (error) {
    if (error instanceof AgentWireError) throw new AgentRequestError(400, error.message);
    throw error;
  }
}
