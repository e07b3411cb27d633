import type { CreatedUser, UserRole } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import { sessionCookieOf } from './test-app.js';

export const USER_PASSWORD = 'user-pass-123';

/** Creates a user as the admin (cookie), signs in as them and replaces the one-time password. */
export async function userSignedIn(
  app: FastifyInstance,
  adminCookie: string,
  username: string,
  role: UserRole,
): Promise<{ id: number; cookie: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { cookie: adminCookie },
    payload: { username, role },
  });
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.body}`);
  const { user, password } = created.json<CreatedUser>();
  const login = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/login',
    payload: { username, password },
  });
  const cookie = sessionCookieOf(login);
  const changed = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/change-password',
    headers: { cookie },
    payload: { current_password: password, new_password: USER_PASSWORD },
  });
  if (changed.statusCode !== 200) throw new Error(`password change failed: ${changed.body}`);
  return { id: user.id, cookie };
}
