import type {
  RegistryCredential,
  RegistryCredentialCreate,
  RegistryCredentialUpdate,
} from '@berth/contracts';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { registryKey, type Credentials } from './registry.js';
import type { CredentialRow, UpdatesStore } from './updates.store.js';

/** Credentials for a registry (as images name it), decrypted on use. */
export async function credentialsFor(
  store: UpdatesStore,
  secrets: SecretBox,
  registry: string,
): Promise<Credentials | null> {
  for (const row of await store.credentials()) {
    if (registryKey(row.registry_url) === registry)
      return { username: row.username, password: secrets.open(row.password_sealed) };
  }
  return null;
}

/** Registry credentials: sealed at rest, the password never shown again. */
export class RegistryCredentials {
  constructor(
    private readonly store: UpdatesStore,
    private readonly secrets: SecretBox,
  ) {}

  async list(): Promise<RegistryCredential[]> {
    return (await this.store.credentials()).map(publicCredential);
  }

  async add(body: RegistryCredentialCreate): Promise<RegistryCredential> {
    const url = registryKey(body.registry_url);
    if (url === '' || /\s/.test(url)) throw badRequest('Invalid registry URL');
    const all = await this.store.credentials();
    if (all.some((r) => registryKey(r.registry_url) === url))
      throw badRequest(`Credentials for ${url} already exist`);
    const row = await this.store.addCredential({
      registry_url: url,
      username: body.username,
      password_sealed: this.secrets.seal(body.password),
    });
    return publicCredential(row);
  }

  async update(id: number, body: RegistryCredentialUpdate): Promise<RegistryCredential> {
    const row = await this.store.credential(id);
    if (row === undefined) throw notFound('Credential not found');
    await this.store.updateCredential(id, {
      ...(body.username === undefined ? {} : { username: body.username }),
      ...(body.password === undefined || body.password === ''
        ? {}
        : { password_sealed: this.secrets.seal(body.password) }),
    });
    const updated = await this.store.credential(id);
    if (updated === undefined) throw notFound('Credential not found');
    return publicCredential(updated);
  }

  async remove(id: number): Promise<void> {
    if (!(await this.store.deleteCredential(id))) throw notFound('Credential not found');
  }
}

/** A credential as the API shows it: never the password. */
function publicCredential(row: CredentialRow): RegistryCredential {
  return {
    id: row.id,
    registry_url: row.registry_url,
    username: row.username,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
