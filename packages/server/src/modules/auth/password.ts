import { hash, verify } from '@node-rs/argon2';

/** Argon2id (the library's default algorithm) with its default cost parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password or an unreadable hash; never throws. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the username does not exist, so timing reveals nothing. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('berth-dummy-password-for-timing');
  return dummyHash;
}
