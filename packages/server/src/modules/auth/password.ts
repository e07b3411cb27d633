// The native argon2 binding (~3 MB resident) loads on the first hash or verify: a server that
// restarts with its admin already made needs it only when someone signs in.
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** Argon2id (the library's default algorithm) with its default cost parameters. */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password);
}

/** False for a wrong password or an unreadable hash; never throws. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
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
