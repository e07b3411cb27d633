import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type AppConfig } from '../config/config.js';

export const TEST_ADMIN = { username: 'admin', password: 'bootstrap-pass-1' };
export const CHANGED_PASSWORD = 'changed-pass-2';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  /** Closes the app and removes its data directory. */
  close: () => Promise<void>;
  /** Builds a second app on the same data directory (a restart). */
  restart: () => Promise<FastifyInstance>;
}

/** A real app on a fresh SQLite database in a temporary directory. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-test-'));
  const config = loadConfig({
    BERTH_DATA_DIR: dataDir,
    BERTH_ADMIN_PASSWORD: TEST_ADMIN.password,
    BERTH_LOG_LEVEL: 'silent',
    BERTH_WEB_DIR: join(dataDir, 'no-web'),
    BERTH_LOCAL_SOCKET: 'none',
    ...env,
  });
  let app = await buildApp(config);
  return {
    get app() {
      return app;
    },
    config,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    restart: async () => {
      await app.close();
      app = await buildApp(config);
      return app;
    },
  };
}

/** The session cookie pair (`name=value`) set by a response. */
export function sessionCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'berth_session');
  if (cookie === undefined) throw new Error(`no session cookie in response ${res.statusCode}`);
  return `${cookie.name}=${cookie.value}`;
}

export async function login(app: FastifyInstance, password = TEST_ADMIN.password): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/login',
    payload: { username: TEST_ADMIN.username, password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookieOf(res);
}

/** Signs in as the bootstrap admin and completes the forced password change. */
export async function signedInCookie(app: FastifyInstance): Promise<string> {
  const cookie = await login(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/change-password',
    headers: { cookie },
    payload: { current_password: TEST_ADMIN.password, new_password: CHANGED_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`password change failed: ${res.body}`);
  return cookie;
}
