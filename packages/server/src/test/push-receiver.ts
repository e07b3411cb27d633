import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/**
 * A browser's side of Web Push, written from the RFCs rather than with the library Berth
 * sends with: a subscription (P-256 key pair and auth secret), a loopback push service that
 * keeps every request raw and answers from a queue of statuses, and the decryption of an
 * aes128gcm payload (RFC 8291) and the check of the VAPID signature (RFC 8292).
 */
export interface PushRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    endpoint,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: auth.toString('base64url'),
    /** The plaintext of an aes128gcm body sent to this subscription. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLen = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + idLen);
      const cipher = body.subarray(21 + idLen);
      const secret = ecdh.computeSecret(senderKey);
      const keyInfo = Buffer.concat([
        Buffer.from('WebPush: info\0'),
        ecdh.getPublicKey(),
        senderKey,
      ]);
      const ikm = Buffer.from(hkdfSync('sha256', secret, auth, keyInfo, 32));
      const cek = Buffer.from(
        hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
      );
      const nonce = Buffer.from(
        hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
      );
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(cipher.subarray(cipher.length - 16));
      const plain = Buffer.concat([
        decipher.update(cipher.subarray(0, cipher.length - 16)),
        decipher.final(),
      ]);
      // One record: the text, the last-record delimiter 2, then zero padding.
      let end = plain.length - 1;
      while (end >= 0 && plain[end] === 0) end--;
      if (plain[end] !== 2) throw new Error('no last-record delimiter');
      return plain.subarray(0, end).toString('utf8');
    },
  };
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>`: signed by `publicKey`, for `audience`. */
export function vapidClaims(
  header: string | undefined,
  publicKey: string,
  audience: string,
): { aud: string; exp: number; sub: string } {
  const m = /^vapid t=([^,\s]+),\s*k=(\S+)$/.exec(header ?? '');
  if (m === null) throw new Error(`not a VAPID authorization: ${String(header)}`);
  const [jwt, k] = [m[1] ?? '', m[2] ?? ''];
  if (k !== publicKey) throw new Error('signed with another key');
  const [head, claims, sig] = jwt.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(sig ?? '', 'base64url'),
  );
  if (!ok) throw new Error('bad VAPID signature');
  const parsed = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (parsed.aud !== audience) throw new Error(`audience ${parsed.aud}, not ${audience}`);
  return parsed;
}

/** A loopback push service: 201 unless told otherwise. */
export async function pushService() {
  const requests: PushRequest[] = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const status = statuses.shift() ?? 201;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? '' : status === 410 ? 'push subscription has unsubscribed' : 'busy');
    });
  });
  server.keepAliveTimeout = 100;
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    requests,
    to: (path: string) => requests.filter((r) => r.url === path),
    answer: (...codes: number[]) => statuses.push(...codes),
    /** Answers 201 from now on. */
    reset: () => statuses.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
