import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The key's file name in the data directory. */
export const KEY_FILE = 'secret.key';
const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * Encrypts secrets at rest (TLS keys, tokens, passwords) with AES-256-GCM.
 * The key is a random 32-byte file in the data directory, created once with mode 0600.
 * Sealed values read `v1:<iv>:<tag>:<ciphertext>` (base64url parts).
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Loads the key file of a data directory, creating it on first start. */
  static open(dataDir: string): SecretBox {
    const path = join(dataDir, KEY_FILE);
    if (!existsSync(path)) {
      writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    chmodSync(path, 0o600);
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte key`);
    return new SecretBox(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, ...parts].join(':');
  }

  /** Throws when the value was sealed with another key or altered. */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('not a sealed secret');
    }
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  sealNullable(plain: string | null): string | null {
    return plain === null ? null : this.seal(plain);
  }

  openNullable(sealed: string | null): string | null {
    return sealed === null ? null : this.open(sealed);
  }
}
