import { AgentRequestError } from '../agent-api.js';

/** What the contracts' zod schemas offer, without the agent depending on zod itself. */
interface BodySchema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/**
 * A request's body as `schema` has it, or a 400 naming the first bad field ("url: Must be an
 * http:// or https:// address"), so Berth's log says what it sent wrong.
 */
export function parseBody<T>(schema: BodySchema<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field =
    issue === undefined || issue.path.length === 0 ? 'body' : issue.path.map(String).join('.');
  throw new AgentRequestError(400, `${field}: ${issue?.message ?? 'Invalid request'}`);
}
