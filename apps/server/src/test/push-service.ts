import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser's side of a subscription: what it hands the app, and the secrets it keeps. */
export interface TestBrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The browser's private key, to decrypt what arrives. */
  privateKey: Buffer;
}

/** One push as the test push service received, checked and decrypted it. */
export interface ReceivedPush {
  path: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Null when the VAPID check or the decryption failed (the reason is in `problem`). */
  payload: unknown;
  problem: string | null;
}

const info = (label: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(`${label}\0`), ...parts]);

/** Decrypts an aes128gcm Web Push body the way a browser does (RFC 8291, RFC 8188). */
export function decryptPushBody(body: Buffer, subscription: TestBrowserSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const keyIdLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + keyIdLength);
  const sealed = body.subarray(21 + keyIdLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(subscription.privateKey);
  const browserKey = Buffer.from(subscription.keys.p256dh, 'base64url');
  const authSecret = Buffer.from(subscription.keys.auth, 'base64url');
  const keyMaterial = Buffer.from(
    hkdfSync(
      'sha256',
      ecdh.computeSecret(serverKey),
      authSecret,
      info('WebPush: info', browserKey, serverKey),
      32,
    ),
  );
  const contentKey = Buffer.from(
    hkdfSync('sha256', keyMaterial, salt, info('Content-Encoding: aes128gcm'), 16),
  );
  const nonce = Buffer.from(hkdfSync('sha256', keyMaterial, salt, info('Content-Encoding: nonce'), 12));
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const padded = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('missing last-record delimiter');
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=…, k=…` (RFC 8292); returns the problem, or null. */
export function checkVapid(
  authorization: string | undefined,
  audience: string,
  publicKey: string,
): string | null {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) return 'no vapid authorization';
  const [, token, key] = match;
  if (key !== publicKey) return 'unexpected key';
  const [header, claims, signature] = token.split('.');
  const point = Buffer.from(key, 'base64url');
  const verifier = createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: verifier, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature ?? '', 'base64url'),
  );
  if (!valid) return 'bad signature';
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') return 'not ES256';
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString());
  const now = Date.now() / 1000;
  if (body.aud !== audience) return `wrong aud ${body.aud}`;
  if (!(body.exp > now && body.exp <= now + 86_400)) return 'exp out of range';
  if (!/^(mailto:|https:)/.test(body.sub ?? '')) return 'bad sub';
  return null;
}

/**
 * A local push service for tests: it speaks RFC 8030 enough to take pushes, checks each
 * one's VAPID token against the server's public key, and decrypts it with the browser key
 * of the subscription it was addressed to. `answers` sets the status per path (the last
 * entry repeats), 201 otherwise.
 */
export async function startTestPushService(vapidPublicKey: string) {
  const received: ReceivedPush[] = [];
  const browsers = new Map<string, TestBrowserSubscription>();
  const answers = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const queued = answers.get(path) ?? [201];
      const status = queued.length > 1 ? (queued.shift() as number) : queued[0];
      const browser = browsers.get(path);
      let payload: unknown = null;
      let problem = checkVapid(request.headers.authorization, origin, vapidPublicKey);
      if (!problem && request.headers['content-encoding'] !== 'aes128gcm') problem = 'not aes128gcm';
      if (!problem && !browser) problem = 'unknown subscription';
      if (!problem && browser) {
        try {
          payload = JSON.parse(decryptPushBody(Buffer.concat(chunks), browser).toString('utf8'));
        } catch (error) {
          problem = `cannot decrypt: ${(error as Error).message}`;
        }
      }
      received.push({ path, status, headers: request.headers, payload, problem });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let sequence = 0;
  return {
    origin,
    received,
    answers,
    /** A new browser subscription, keys generated the way a browser does. */
    subscribe(): TestBrowserSubscription {
      sequence += 1;
      const ecdh = createECDH('prime256v1');
      const p256dh = ecdh.generateKeys().toString('base64url');
      const path = `/push/${sequence}-${randomBytes(6).toString('hex')}`;
      const browser = {
        endpoint: `${origin}${path}`,
        keys: { p256dh, auth: randomBytes(16).toString('base64url') },
        privateKey: ecdh.getPrivateKey(),
      };
      browsers.set(path, browser);
      return browser;
    },
    /** Pushes that reached one subscription. */
    pushesTo(subscription: { endpoint: string }) {
      const path = new URL(subscription.endpoint).pathname;
      return received.filter((push) => push.path === path);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestPushService = Awaited<ReturnType<typeof startTestPushService>>;
