import { randomBytes } from 'node:crypto';
import type {
  CreateUserRequest,
  CreatedUser,
  ManagedUser,
  OneTimePassword,
  UpdateUserRequest,
  User,
  UserRole,
} from '@berth/contracts';
import { hashPassword, roleOf } from '../auth/index.js';
import { badRequest, conflict, notFound } from '../../platform/http-errors.js';
import type { ManagedUserRow, UsersStore } from './users.store.js';

export interface UsersPorts {
  /** Closes the live sockets of a session that was just deleted. */
  closeSession: (tokenHash: string) => void;
  /** A user's role, host tags or state changed: its open live sockets take it at once. */
  userChanged?: (userId: number) => Promise<void>;
  now?: () => number;
}

/** Who signs in with a second factor and who has a single sign-on account linked. */
export type SignInMethods = () => Promise<{ twoFactor: number[]; ssoLinked: number[] }>;
const NO_METHODS: SignInMethods = () => Promise.resolve({ twoFactor: [], ssoLinked: [] });

const ADMIN_TAGS =
  'host_tags: Admins reach every host; choose another role to limit a user to tags';
const LAST_ADMIN = 'The last enabled admin must stay an enabled admin; make another admin first';

/** Settings → Users: creating users with one-time passwords, roles, disabling, deleting. */
export class UsersService {
  private readonly now: () => number;
  private signInMethods: SignInMethods = NO_METHODS;

  constructor(
    private readonly store: UsersStore,
    private readonly ports: UsersPorts,
  ) {
    this.now = ports.now ?? Date.now;
  }

  /** Two-factor and single sign-on are wired after users (single sign-on makes users). */
  useSignInMethods(methods: SignInMethods): void {
    this.signInMethods = methods;
  }

  async list(): Promise<ManagedUser[]> {
    return this.managed(await this.store.list());
  }

  async create(request: CreateUserRequest): Promise<CreatedUser> {
    if ((await this.store.byName(request.username)) !== undefined) {
      throw conflict('username: A user with this name already exists');
    }
    const hostTags = request.host_tags ?? [];
    if (request.role === 'admin' && hostTags.length > 0) throw badRequest(ADMIN_TAGS);
    const password = oneTimePassword();
    const id = await this.store.insert({
      username: request.username,
      display_name: blankToNull(request.display_name),
      email: blankToNull(request.email),
      role: request.role,
      host_tags: JSON.stringify(hostTags),
      password_hash: await hashPassword(password),
      now: this.iso(),
    });
    return { user: await this.managedOne(await this.found(id)), password };
  }

  async update(id: number, request: UpdateUserRequest, by: User): Promise<ManagedUser> {
    const row = await this.found(id);
    const demoted = request.role !== undefined && request.role !== 'admin';
    if (row.role === 'admin' && row.disabled === 0 && (demoted || request.disabled === true)) {
      if ((await this.store.otherEnabledAdmins(id)) === 0) throw conflict(LAST_ADMIN);
    }
    if (request.disabled === true && id === by.id) {
      throw badRequest('disabled: You cannot disable yourself');
    }
    // Admins reach every host: tags asked for an admin are refused, and a user who becomes
    // an admin loses the tags, so a later demotion does not silently bring back an old scope.
    const role = request.role ?? row.role;
    if (role === 'admin' && (request.host_tags?.length ?? 0) > 0) throw badRequest(ADMIN_TAGS);
    const hostTags = role === 'admin' ? [] : request.host_tags;
    await this.store.update(
      id,
      {
        ...(request.display_name !== undefined && {
          display_name: blankToNull(request.display_name),
        }),
        ...(request.email !== undefined && { email: blankToNull(request.email) }),
        ...(request.role !== undefined && { role: request.role }),
        ...(request.disabled !== undefined && { disabled: request.disabled ? 1 : 0 }),
        ...(hostTags !== undefined && { host_tags: JSON.stringify(hostTags) }),
      },
      this.iso(),
    );
    // A disabled user is signed out at once, its sockets too. Requests need nothing for a role
    // or scope change (the guard reads the user row on every request); open sockets do:
    if (request.disabled === true) await this.endSessions(id);
    // Its open live sockets follow a new role, scope or disabling without a reconnect.
    await this.ports.userChanged?.(id);
    return this.managedOne(await this.found(id));
  }

  async remove(id: number, by: User): Promise<void> {
    if (id === by.id) throw badRequest('id: You cannot delete yourself');
    const row = await this.found(id);
    if (
      row.role === 'admin' &&
      row.disabled === 0 &&
      (await this.store.otherEnabledAdmins(id)) === 0
    ) {
      throw conflict(LAST_ADMIN);
    }
    // Sessions and keys go with the user (foreign keys cascade); the sockets are closed here.
    await this.endSessions(id);
    await this.store.remove(id);
  }

  /** A new one-time password, to be changed at the next sign-in; ends the user's sessions. */
  async resetPassword(id: number): Promise<OneTimePassword> {
    await this.found(id);
    const password = oneTimePassword();
    await this.store.setOneTimePassword(id, await hashPassword(password), this.iso());
    await this.endSessions(id);
    return { password };
  }

  // Single sign-on finds, makes and re-roles users through these, under the same rules.

  byName(username: string): Promise<ManagedUserRow | undefined> {
    return this.store.byName(username);
  }

  byId(id: number): Promise<ManagedUserRow | undefined> {
    return this.store.byId(id);
  }

  /** A user made at a first sign-on: no password anyone holds, so none to change either. */
  async createSignedOn(user: {
    username: string;
    display_name: string | null;
    email: string | null;
    role: UserRole;
  }): Promise<number> {
    return this.store.insert({
      ...user,
      host_tags: '[]',
      password_hash: await unusablePasswordHash(),
      first_login: false,
      now: this.iso(),
    });
  }

  /** Signing on replaces a one-time password nobody changed yet (it was the admin's to hand over). */
  async retireOneTimePassword(id: number): Promise<void> {
    await this.store.retirePassword(id, await unusablePasswordHash(), this.iso());
  }

  /** The role a provider's claim gives; a new admin loses its tags, as in update. */
  async setRoleFromProvider(id: number, role: UserRole): Promise<void> {
    await this.store.update(id, { role, ...(role === 'admin' && { host_tags: '[]' }) }, this.iso());
    await this.ports.userChanged?.(id);
  }

  async isLastEnabledAdmin(id: number): Promise<boolean> {
    const row = await this.store.byId(id);
    return (
      row?.role === 'admin' && row.disabled === 0 && (await this.store.otherEnabledAdmins(id)) === 0
    );
  }

  async endSessions(id: number): Promise<void> {
    await this.found(id);
    for (const tokenHash of await this.store.endSessions(id)) this.ports.closeSession(tokenHash);
  }

  private async managed(rows: ManagedUserRow[]): Promise<ManagedUser[]> {
    const methods = await this.signInMethods();
    const sets = { twoFactor: new Set(methods.twoFactor), ssoLinked: new Set(methods.ssoLinked) };
    return rows.map((row) => toManagedUser(row, sets));
  }

  private async managedOne(row: ManagedUserRow): Promise<ManagedUser> {
    const [user] = await this.managed([row]);
    if (user === undefined) throw new Error('unreachable: one row in, one user out');
    return user;
  }

  private async found(id: number): Promise<ManagedUserRow> {
    const row = await this.store.byId(id);
    if (row === undefined) throw notFound('User not found');
    return row;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}

/** The hash of a secret nobody holds: a password sign-in needs an admin's reset first. */
const unusablePasswordHash = () => hashPassword(randomBytes(32).toString('base64url'));

/** 16 random bytes: as strong as a key, short enough to read out once. */
const oneTimePassword = () => randomBytes(16).toString('base64url');

const blankToNull = (value: string | null | undefined) =>
  value === undefined || value === null || value === '' ? null : value;

function toManagedUser(
  row: ManagedUserRow,
  methods: { twoFactor: Set<number>; ssoLinked: Set<number> },
): ManagedUser {
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    email: row.email,
    role: roleOf(row.role),
    disabled: row.disabled === 1,
    is_first_login: row.is_first_login === 1,
    host_tags: JSON.parse(row.host_tags) as string[],
    created_at: row.created_at,
    two_factor: methods.twoFactor.has(row.id),
    sso_linked: methods.ssoLinked.has(row.id),
  };
}
