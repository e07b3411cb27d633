import {
  createCipheriv,
  createDecipheriv,
  randomBytes,
  scrypt,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';
import { Transform } from 'node:stream';
import { RestoreRefused } from './cli-errors.js';

/**
 * An encrypted backup: HEADER | AES-256-GCM ciphertext of the whole archive | TRAILER.
 * HEADER (56 bytes): magic, format version, scrypt's log2(N), r, p, salt (16), iv (12) and a
 * key check (16). TRAILER (24 bytes): the GCM tag, then an end marker. The header is the
 * cipher's additional data, so the tag authenticates it and every byte of the archive.
 * The key check (scrypt's output past the AES key) tells a wrong passphrase from an altered
 * file at once, instead of after decrypting gigabytes; it helps a guesser no more than the
 * first encrypted block would. The end marker tells a truncated file from an altered one.
 */
export const ENCRYPTED_MAGIC = Buffer.from('BERTHENC', 'latin1');
const END_MARKER = Buffer.from('BERTHEND', 'latin1');
const FORMAT_VERSION = 1;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const CHECK_BYTES = 16;
const TAG_BYTES = 16;
export const HEADER_BYTES = ENCRYPTED_MAGIC.length + 4 + SALT_BYTES + IV_BYTES + CHECK_BYTES;
export const TRAILER_BYTES = TAG_BYTES + END_MARKER.length;

/** scrypt at N = 2^17, r = 8, p = 1: 128 MiB and about half a second per derivation. */
export const SCRYPT_COST = { log2N: 17, r: 8, p: 1 } as const;
export type ScryptCost = { log2N: number; r: number; p: number };
/** A header may ask for more work (a later Berth), but never more memory than this. */
const MAX_SCRYPT_MEMORY = 1024 * 1024 * 1024;

function deriveKey(passphrase: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const memory = 128 * 2 ** cost.log2N * cost.r * cost.p;
  const options: ScryptOptions = {
    N: 2 ** cost.log2N,
    r: cost.r,
    p: cost.p,
    maxmem: memory + 32 * 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 32 + CHECK_BYTES, options, (err, key) =>
      err === null ? resolve(key) : reject(err),
    ),
  );
}

/** A stream that writes the header, the ciphertext of what passes through, then the trailer. */
export async function encryptingStream(
  passphrase: string,
  cost: ScryptCost = SCRYPT_COST,
): Promise<Transform> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const derived = await deriveKey(passphrase, salt, cost);
  const header = Buffer.concat([
    ENCRYPTED_MAGIC,
    Buffer.from([FORMAT_VERSION, cost.log2N, cost.r, cost.p]),
    salt,
    iv,
    derived.subarray(32),
  ]);
  const cipher = createCipheriv('aes-256-gcm', derived.subarray(0, 32), iv);
  cipher.setAAD(header);
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, cipher.update(chunk));
    },
    flush(done) {
      const last = cipher.final();
      done(null, Buffer.concat([last, cipher.getAuthTag(), END_MARKER]));
    },
  });
  stream.push(header);
  return stream;
}

/** Where the ciphertext lies in the file, and the decipher that reads it. */
export interface OpenedEncryption {
  /** Byte range of the ciphertext in the file (end inclusive, as createReadStream takes it). */
  start: number;
  end: number;
  decipher: Transform;
}

/**
 * Reads an encrypted backup's header and trailer (`head` and `tail` are the file's first
 * HEADER_BYTES and last TRAILER_BYTES, `size` its length) and checks the passphrase.
 * The returned decipher fails at its end when any byte was altered.
 */
export async function openEncryption(
  head: Buffer,
  tail: Buffer,
  size: number,
  passphrase: string,
): Promise<OpenedEncryption> {
  if (size < HEADER_BYTES + TRAILER_BYTES) throw new RestoreRefused('truncated');
  const version = head[ENCRYPTED_MAGIC.length] ?? 0;
  if (version > FORMAT_VERSION) {
    throw new RestoreRefused(
      `made by a newer Berth: encryption format ${version}, this Berth reads up to ${FORMAT_VERSION}`,
    );
  }
  if (!tail.subarray(TAG_BYTES).equals(END_MARKER)) throw new RestoreRefused('truncated');
  const at = ENCRYPTED_MAGIC.length + 1;
  const cost = { log2N: head[at] ?? 0, r: head[at + 1] ?? 0, p: head[at + 2] ?? 0 };
  const memory = 128 * 2 ** cost.log2N * cost.r * cost.p;
  if (version < 1 || cost.log2N < 1 || cost.r < 1 || cost.p < 1 || memory > MAX_SCRYPT_MEMORY) {
    throw new RestoreRefused('damaged (its encryption header is not valid)');
  }
  let offset = at + 3;
  const take = (n: number) => head.subarray(offset, (offset += n));
  const salt = take(SALT_BYTES);
  const iv = take(IV_BYTES);
  const check = take(CHECK_BYTES);
  const derived = await deriveKey(passphrase, salt, cost);
  if (!timingSafeEqual(derived.subarray(32), check)) throw new RestoreRefused('wrong passphrase');
  const decipher = createDecipheriv('aes-256-gcm', derived.subarray(0, 32), iv);
  decipher.setAAD(head);
  decipher.setAuthTag(tail.subarray(0, TAG_BYTES));
  return { start: HEADER_BYTES, end: size - TRAILER_BYTES - 1, decipher };
}
