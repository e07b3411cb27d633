import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config/config.js';
import type { Db } from './db/database.js';
import type { AuditService } from './modules/audit/index.js';
import { AuthService, hostScopeOf, SessionsService, type AuthStore } from './modules/auth/index.js';
import { createSettingsStore } from './modules/settings/index.js';
import { createSsoStore, SsoService } from './modules/sso/index.js';
import { createTwoFactorStore, TwoFactorService } from './modules/two-factor/index.js';
import { createUsersStore, UsersService } from './modules/users/index.js';
import type { LiveHub } from './platform/live-hub.js';
import { SecretBox } from './platform/secret-box.js';

/**
 * Who may sign in and how: password sign-in with its second factor, single sign-on, sessions
 * and users, wired to each other through their ports and to the live hub for open sockets.
 */
export async function createAccessServices({
  config,
  db,
  log,
  hub,
  audit,
  authStore,
}: {
  config: AppConfig;
  db: Db;
  log: FastifyBaseLogger;
  hub: LiveHub;
  audit: AuditService;
  authStore: AuthStore;
}) {
  const auth = new AuthService(authStore, log);
  const sessions = new SessionsService(authStore, {
    closeSession: (tokenHash, reason) => hub.closeSession(tokenHash, reason),
  });
  // Checked after a right password; also holds a required role's sessions to enrolment.
  const twoFactor = new TwoFactorService({
    store: createTwoFactorStore(db),
    box: SecretBox.open(config.dataDir),
    settings: createSettingsStore(db),
    checkPassword: (id, password, address) => auth.checkPassword(id, password, address),
    userExists: async (id) => (await authStore.findUserById(id)) !== undefined,
  });
  await twoFactor.load();
  auth.useSignInChecks({
    secondFactor: (user, code) => twoFactor.verifySignIn(user, code),
    sessionHold: (user, method) => twoFactor.hold(user, method),
  });
  // A user's open live sockets follow a new role, scope or disabling. The change is saved
  // before this runs, so a failure here is logged rather than failing the request.
  const userChanged = async (userId: number) => {
    try {
      const user = await auth.user(userId);
      hub.userChanged(userId, user === null ? 'gone' : hostScopeOf(user));
    } catch (err) {
      log.error({ err, userId }, 'could not update the live sockets of a changed user');
    }
  };
  const users = new UsersService(createUsersStore(db), {
    closeSession: (tokenHash) => hub.closeSession(tokenHash, 'Signed out by an admin'),
    userChanged,
  });
  const sso = new SsoService({
    store: createSsoStore(db),
    users,
    box: SecretBox.open(config.dataDir),
    auth,
    audit,
  });
  users.useSignInMethods(async () => ({
    twoFactor: await twoFactor.enabledUserIds(),
    ssoLinked: await sso.linkedUserIds(),
  }));
  // Once password sign-in is off, only admins keep theirs (break-glass).
  auth.useSignInChecks({ passwordSignIn: (user) => sso.checkPasswordSignIn(user) });
  return { auth, sessions, twoFactor, users, sso };
}
