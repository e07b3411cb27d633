import {
  AGENT_TOKEN_HEADER,
  agentSecretHeaderValue,
  type AgentEnrollResponse,
  type EnrollmentTokenResponse,
} from '@berth/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { captureLog } from '../../test/log-capture.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// What an operator reads when an agent is turned away: the agent hears only "refused", the
// log says why, and neither carries the token or the secret.
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let base: string;
let log: Record<string, unknown>[];

const newToken = async () =>
  (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body.token;
const enroll = (token: string) =>
  fetch(`${base}/api/agents/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [AGENT_TOKEN_HEADER]: token },
    body: JSON.stringify({
      name: `refusals-${Math.random().toString(16).slice(2, 8)}`,
      version: '0.1.0',
    }),
  });
const connect = (secret: string) =>
  fetch(`${base}/api/agents/connect`, {
    headers: { authorization: agentSecretHeaderValue(secret) },
  });

/** The refusal logged for the last request, with the status and detail the agent got. */
async function refused(res: Response, detail: string) {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ detail });
  const line = log.findLast((l) => l.msg === detail);
  expect(line).toMatchObject({ level: 40 });
  return line?.reason;
}

beforeAll(async () => {
  t = await buildTestApp({ BERTH_LOG_LEVEL: 'warn', BERTH_LOG_FORMAT: 'json' });
  log = captureLog(t.app);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterAll(() => t.close());

describe('refused agents', () => {
  it('refuses an expired token, a reused one, a wrong secret and a deleted host, saying why in the log', async () => {
    const expired = await newToken();
    await sql`update agent_enrollment_tokens set expires_at = ${new Date(0).toISOString()}`.execute(
      t.app.services.db,
    );
    expect(await refused(await enroll(expired), 'Enrollment token refused')).toBe(
      'enrollment token expired',
    );

    const token = await newToken();
    const first = await enroll(token);
    expect(first.status).toBe(201);
    const { host_id, secret } = (await first.json()) as AgentEnrollResponse;
    expect(await refused(await enroll(token), 'Enrollment token refused')).toBe(
      'enrollment token already used',
    );

    expect(await refused(await connect(`${secret}x`), 'Agent secret refused')).toBe(
      'unknown agent secret',
    );
    // The secret is good until its host is deleted; then it is refused like any unknown one.
    // (Answered for what follows the secret: no upgrade, or no announced protocol.)
    expect((await connect(secret)).status).not.toBe(401);
    expect((await api.delete(`/hosts/${host_id}`)).status).toBeLessThan(300);
    expect(await refused(await connect(secret), 'Agent secret refused')).toBe(
      'unknown agent secret',
    );

    const text = JSON.stringify(log);
    for (const value of [expired, token, secret]) expect(text).not.toContain(value);
  });
});
