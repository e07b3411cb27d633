import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  MAX_API_KEYS,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  type User,
} from '@berth/contracts';
import type { ApiKeyAuthenticator, ApiKeyIdentity } from '../auth/index.js';
import type { EventInput } from '../events/index.js';
import { badRequest, conflict, notFound } from '../../platform/http-errors.js';
import type { ApiKeyRow, ApiKeysStore } from './api-keys.store.js';

/** last_used_at is written at most this often. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** Characters of a key shown in lists: the prefix and four of its random part. */
const SHOWN_CHARS = API_KEY_PREFIX.length + 4;
/** Longest bearer value looked up; a real key is 49 characters. */
const MAX_KEY_LENGTH = 200;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const isScope = (scope: string): scope is ApiKeyScope =>
  (API_KEY_SCOPES as readonly string[]).includes(scope);

export interface ApiKeysPorts {
  userById: (id: number) => Promise<User | null>;
  recordEvent: (event: EventInput) => Promise<unknown>;
  now?: () => number;
}

/** Creating, listing, revoking and checking API keys. */
export class ApiKeysService implements ApiKeyAuthenticator {
  private readonly now: () => number;

  constructor(
    private readonly store: ApiKeysStore,
    private readonly ports: ApiKeysPorts,
  ) {
    this.now = ports.now ?? Date.now;
  }

  /** Every key for an admin; only their own for anyone else. */
  async list(viewer: User): Promise<ApiKey[]> {
    const rows = (await this.store.list()).filter(
      (row) => viewer.role === 'admin' || row.user_id === viewer.id,
    );
    const owners = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.user_id))) {
      owners.set(id, (await this.ports.userById(id))?.username ?? '');
    }
    return rows.map((row) => toApiKey(row, owners.get(row.user_id) ?? ''));
  }

  /** Makes a key for the user; the answer holds the key itself, which is never shown again. */
  async create(request: CreateApiKeyRequest, owner: User): Promise<CreatedApiKey> {
    const expiresAt = request.expires_at ?? null;
    if (expiresAt !== null && Date.parse(expiresAt) <= this.now()) {
      throw badRequest('expires_at: Expiry must be in the future');
    }
    // Logs and the event log name a key by its name, so two keys never share one.
    if ((await this.store.byName(request.name)) !== undefined) {
      throw conflict('name: An API key with this name already exists');
    }
    if ((await this.store.count()) >= MAX_API_KEYS) {
      throw conflict(`At most ${MAX_API_KEYS} API keys can exist; revoke one first`);
    }
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = {
      name: request.name,
      scope: request.scope,
      key_hash: hashKey(key),
      prefix: key.slice(0, SHOWN_CHARS),
      user_id: owner.id,
      created_at: new Date(this.now()).toISOString(),
      last_used_at: null,
      expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    };
    const id = await this.store.insert(row);
    await this.keyEvent('api_key_created', `API key "${row.name}" created (${row.scope})`, owner);
    return { ...toApiKey({ ...row, id }, owner.username), key };
  }

  async revoke(id: number, by: User): Promise<void> {
    const row = await this.store.byId(id);
    // Another user's key is not found, as in their list: only an admin revokes any key.
    const visible = row !== undefined && (by.role === 'admin' || row.user_id === by.id);
    if (!visible || !(await this.store.remove(id))) throw notFound('API key not found');
    await this.keyEvent('api_key_revoked', `API key "${row.name}" revoked`, by);
  }

  async authenticate(key: string): Promise<{ key: ApiKeyIdentity; owner: User } | null> {
    if (!key.startsWith(API_KEY_PREFIX) || key.length > MAX_KEY_LENGTH) return null;
    const row = await this.store.byHash(hashKey(key));
    if (row === undefined || !isScope(row.scope)) return null;
    const now = this.now();
    if (row.expires_at !== null && Date.parse(row.expires_at) <= now) return null;
    const owner = await this.ports.userById(row.user_id);
    if (owner === null) return null;
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
      await this.store.touch(row.id, new Date(now).toISOString());
    }
    return { key: { id: row.id, name: row.name, scope: row.scope }, owner };
  }

  private async keyEvent(type: string, title: string, by: User): Promise<void> {
    await this.ports.recordEvent({
      severity: 'info',
      category: 'user',
      event_type: type,
      title,
      triggered_by: by.username,
    });
  }
}

function toApiKey(row: ApiKeyRow, createdBy: string): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiKeyScope,
    prefix: row.prefix,
    created_by: createdBy,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
  };
}
