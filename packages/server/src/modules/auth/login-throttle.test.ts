import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  signedInCookie,
  TEST_ADMIN,
  type TestApp,
} from '../../test/test-app.js';
import { AuthService } from './auth.service.js';
import { createAuthStore } from './auth.store.js';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle } from './login-throttle.js';
import * as password from './password.js';

const at = (address: string) => ({ address, userAgent: null });

// Every password check in the app goes through this spy, so a test can count them.
vi.mock('./password.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./password.js')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const verifyCalls = () => vi.mocked(password.verifyPassword).mock.calls.length;

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
  vi.mocked(password.verifyPassword).mockClear();
});
afterEach(() => t.close());

/** An AuthService on the test database whose waits are recorded instead of slept. */
function serviceWithRecordedWaits() {
  const waits: number[] = [];
  const throttle = new LoginThrottle(DEFAULT_LOGIN_LIMITS, Date.now, (ms) => {
    waits.push(ms);
    return Promise.resolve();
  });
  const auth = new AuthService(createAuthStore(t.app.services.db), t.app.log, {
    loginThrottle: throttle,
    passwordThrottle: throttle,
  });
  return { auth, waits };
}

const statusOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 200,
    (err: unknown) => (err as { statusCode: number }).statusCode,
  );

describe('login throttle', () => {
  it('checks at most the allowed number of passwords in a parallel burst over HTTP', async () => {
    const burst = Array.from({ length: 100 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/auth/login',
        payload: { username: `user${i}`, password: 'wrong-wrong' },
      }),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.statusCode);
    expect(verifyCalls()).toBeLessThanOrEqual(DEFAULT_LOGIN_LIMITS.perAddress);
    expect(statuses.filter((s) => s === 401)).toHaveLength(verifyCalls());
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - verifyCalls());
  });

  it('reserves attempts before the password check in a burst on one username', async () => {
    const { auth, waits } = serviceWithRecordedWaits();
    const burst = Array.from({ length: 100 }, () =>
      statusOf(auth.login('admin', 'wrong-wrong', at('192.0.2.1'))),
    );
    const statuses = await Promise.all(burst);
    expect(verifyCalls()).toBe(DEFAULT_LOGIN_LIMITS.perAddress);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - DEFAULT_LOGIN_LIMITS.perAddress);
    // Past the free attempts each waits longer: 1 s, 2 s, 4 s … up to 30 s.
    expect(waits.slice(0, 3).map((w) => Math.round(w / 1000))).toEqual([1, 2, 4]);
    expect(Math.max(...waits)).toBeLessThanOrEqual(DEFAULT_LOGIN_LIMITS.maxDelayMs);
  });

  it("lets the owner sign in from a clean address after a stranger's 50 failures", async () => {
    const { auth, waits } = serviceWithRecordedWaits();
    for (let i = 0; i < 50; i++) {
      expect(await statusOf(auth.login('admin', 'wrong-wrong', at(`203.0.113.${i % 3}`)))).not.toBe(
        200,
      );
    }
    expect(await statusOf(auth.login('admin', TEST_ADMIN.password, at('198.51.100.7')))).toBe(200);
    expect(waits.at(-1)).toBeLessThanOrEqual(DEFAULT_LOGIN_LIMITS.maxDelayMs);
    // A success clears the username's slowdown.
    expect(await statusOf(auth.login('admin', TEST_ADMIN.password, at('198.51.100.7')))).toBe(200);
    expect(waits.at(-1)).toBeLessThanOrEqual(DEFAULT_LOGIN_LIMITS.maxDelayMs);
  });

  it('blocks an address for a while, and forgets it after the window', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(DEFAULT_LOGIN_LIMITS, () => now);
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.perAddress; i++) {
      expect(throttle.begin('192.0.2.1', `u${i}`)).not.toBeNull();
    }
    expect(throttle.begin('192.0.2.1', 'someone')).toBeNull();
    expect(throttle.begin('192.0.2.2', 'someone')).not.toBeNull();
    now += DEFAULT_LOGIN_LIMITS.windowMs + 1;
    expect(throttle.begin('192.0.2.1', 'someone')).not.toBeNull();
  });

  it('gives a successful attempt its reservation back', () => {
    const throttle = new LoginThrottle({ ...DEFAULT_LOGIN_LIMITS, perAddress: 2 });
    for (let i = 0; i < 5; i++) throttle.begin('192.0.2.1', 'admin')?.succeeded();
    expect(throttle.begin('192.0.2.1', 'admin')).not.toBeNull();
  });
});

describe('change-password throttle', () => {
  it('checks at most the allowed number of current passwords per address', async () => {
    await signedInCookie(t.app);
    const { auth } = serviceWithRecordedWaits();
    const session = {
      user: {
        id: 1,
        username: 'admin',
        display_name: null,
        is_first_login: false,
        role: 'admin' as const,
        host_tags: [],
      },
      tokenHash: 'x',
    };
    vi.mocked(password.verifyPassword).mockClear();
    const burst = Array.from({ length: 40 }, () =>
      statusOf(auth.changePassword(session, 'not-it-at-all', 'another-pass-9', '192.0.2.1')),
    );
    const statuses = await Promise.all(burst);
    expect(verifyCalls()).toBe(DEFAULT_LOGIN_LIMITS.perAddress);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - DEFAULT_LOGIN_LIMITS.perAddress);
    expect(
      await statusOf(auth.changePassword(session, CHANGED_PASSWORD, 'another-pass-9', '192.0.2.2')),
    ).toBe(200);
  });
});
