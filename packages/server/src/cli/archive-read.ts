import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { ENCRYPTED_MAGIC, HEADER_BYTES, openEncryption, TRAILER_BYTES } from './archive-crypto.js';
import {
  ARCHIVED_FILES,
  MANIFEST_FILE,
  MANIFEST_MAX_BYTES,
  parseManifest,
  type ArchivedFile,
  type Manifest,
} from './archive-format.js';
import { CliFailure, RestoreRefused } from './cli-errors.js';

export const NOT_A_BACKUP = 'not a Berth backup';
export const TRUNCATED = 'truncated';
export const DAMAGED = 'damaged (altered or corrupted after it was written)';
const ENCRYPTED_NEEDS_PASSPHRASE = 'it is encrypted: give its passphrase with --passphrase-file';

async function readEnds(file: string): Promise<{ head: Buffer; tail: Buffer; size: number }> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliFailure(
      `Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : String(code)}`,
    );
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(HEADER_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(TRAILER_BYTES, size));
    await handle.read(tail, 0, tail.length, size - tail.length);
    return { head, tail, size };
  } finally {
    await handle.close();
  }
}

/** The archive's bytes as a stream: decrypted (and authenticated at its end) when encrypted. */
async function openArchive(
  file: string,
  passphrase: string | null,
): Promise<{ stream: Readable; encrypted: boolean }> {
  const { head, tail, size } = await readEnds(file);
  if (!head.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC)) {
    return { stream: createReadStream(file), encrypted: false };
  }
  if (passphrase === null) throw new RestoreRefused(ENCRYPTED_NEEDS_PASSPHRASE);
  const { start, end, decipher } = await openEncryption(head, tail, size, passphrase);
  const ciphertext: Readable =
    end < start ? Readable.from([]) : createReadStream(file, { start, end });
  ciphertext.on('error', (err: Error) => decipher.destroy(err));
  return { stream: ciphertext.pipe(decipher), encrypted: true };
}

/** Reads a tar stream into a folder: the manifest first, then only the files it may list. */
class Extraction {
  manifest: Manifest | null = null;
  private sawFirstEntry = false;
  private readonly received = new Map<string, { size: number; sha256: string }>();
  private readonly writes: Promise<void>[] = [];
  private readonly outs: WriteStream[] = [];
  private fail: (err: Error) => void = () => undefined;

  constructor(private readonly into: string) {}

  run(stream: Readable): Promise<void> {
    return new Promise((resolve, reject) => {
      this.fail = reject;
      let ended = 0;
      const oneEnded = () => {
        // Both the bytes (a decipher checks its tag at its end) and the parser are done.
        if (++ended === 2) Promise.all(this.writes).then(() => resolve(), reject);
      };
      const parser = new Parser();
      parser.on('entry', (entry: ReadEntry) => {
        try {
          this.onEntry(entry);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      parser.on('error', reject);
      parser.on('end', oneEnded);
      stream.on('error', reject);
      stream.on('end', oneEnded);
      stream.pipe(parser);
    });
  }

  private onEntry(entry: ReadEntry): void {
    if (!this.sawFirstEntry) {
      this.sawFirstEntry = true;
      const isManifest = entry.path === MANIFEST_FILE && entry.type === 'File';
      if (!isManifest || entry.size > MANIFEST_MAX_BYTES) throw new RestoreRefused(NOT_A_BACKUP);
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        try {
          this.manifest = parseManifest(Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          this.fail(err instanceof Error ? err : new Error(String(err)));
        }
      });
      return;
    }
    const name = ARCHIVED_FILES.find((n) => n === entry.path);
    if (name === undefined || entry.type !== 'File' || this.received.has(name)) {
      throw new RestoreRefused(`damaged (unexpected entry ${JSON.stringify(entry.path)})`);
    }
    this.received.set(name, { size: -1, sha256: '' });
    const hash = createHash('sha256');
    let size = 0;
    const out = createWriteStream(join(this.into, name), { mode: 0o600, flags: 'wx' });
    this.outs.push(out);
    // Written by hand rather than piped: a piped Minipass entry gives its data to the pipe
    // and not to a 'data' listener besides.
    entry.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
      if (!out.write(chunk)) entry.pause();
    });
    out.on('drain', () => entry.resume());
    entry.on('end', () => out.end());
    const written = new Promise<void>((resolve, reject) => {
      out.on('finish', () => {
        this.received.set(name, { size, sha256: hash.digest('hex') });
        resolve();
      });
      out.on('error', reject);
    });
    // Awaited with the others at the end; after a failure nobody waits for it any more.
    written.catch(() => undefined);
    this.writes.push(written);
  }

  /** Every file the manifest lists arrived whole and unaltered. */
  check(): Manifest {
    if (this.manifest === null) throw new RestoreRefused(NOT_A_BACKUP);
    for (const file of this.manifest.files) checkFile(file, this.received.get(file.name));
    return this.manifest;
  }

  stop(): void {
    for (const out of this.outs) out.destroy();
  }
}

function checkFile(listed: ArchivedFile, got: { size: number; sha256: string } | undefined): void {
  if (got === undefined || got.size < listed.size) throw new RestoreRefused(TRUNCATED);
  if (got.size !== listed.size || got.sha256 !== listed.sha256) {
    throw new RestoreRefused(`damaged (${listed.name} does not match its checksum)`);
  }
}

/**
 * Names what went wrong in one word or phrase. Inside an encrypted archive whose passphrase
 * was right and whose end marker is there, anything but a newer Berth's archive is damage.
 */
function refusalOf(err: unknown, encrypted: boolean, sawManifest: boolean): RestoreRefused {
  if (err instanceof RestoreRefused) {
    const plainFailure = err.message === NOT_A_BACKUP || err.message === TRUNCATED;
    return encrypted && plainFailure ? new RestoreRefused(DAMAGED) : err;
  }
  if (encrypted) return new RestoreRefused(DAMAGED);
  const code = (err as { code?: unknown }).code;
  // zlib's "unexpected end of file": the gzip stream stops before its end. Any other zlib
  // error is a stream altered on the way, the manifest unread or not.
  if (code === 'Z_BUF_ERROR') return new RestoreRefused(TRUNCATED);
  if (typeof code === 'string' && code.startsWith('Z_')) return new RestoreRefused(DAMAGED);
  return new RestoreRefused(sawManifest ? DAMAGED : NOT_A_BACKUP);
}

/**
 * Unpacks a backup into `into` (an empty folder) and checks it whole: a Berth backup, the
 * right passphrase, nothing missing or altered, a format and schema this Berth reads.
 * Throws RestoreRefused naming the first problem; `into` may then hold partial files.
 */
export async function extractArchive(
  file: string,
  into: string,
  passphrase: string | null,
): Promise<Manifest> {
  const { stream, encrypted } = await openArchive(file, passphrase);
  const extraction = new Extraction(into);
  try {
    await extraction.run(stream);
    return extraction.check();
  } catch (err) {
    stream.destroy();
    extraction.stop();
    throw refusalOf(err, encrypted, extraction.manifest !== null);
  }
}
