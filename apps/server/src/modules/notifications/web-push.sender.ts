import { createCipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { pushLimits } from '@app/contracts';
import type { VapidKeys } from './vapid.keys';

/** Where and how to reach one browser: its subscription as stored. */
export interface PushTarget {
  endpoint: string;
  /** Base64url uncompressed P-256 public key of the browser. */
  p256dh: string;
  /** Base64url 16-byte auth secret. */
  auth: string;
}

export interface PushOptions {
  ttlSeconds?: number;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
  /** Replaces a push still waiting at the push service under the same topic (≤ 32 base64url chars). */
  topic?: string;
}

/** What the push service said: taken, or the subscription no longer exists. */
export type PushOutcome = 'delivered' | 'gone';

/** A push the service refused; `retryable` (429, 5xx, network) means try again later. */
export class PushDeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Record size written in the header; one record holds the whole (small) payload. */
const recordSize = 4096;

const info = (label: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(`${label}\0`), ...parts]);

/**
 * Encrypts a push payload for one browser (RFC 8291, aes128gcm of RFC 8188): an ephemeral
 * ECDH key agrees a secret with the browser's key, mixed with its auth secret through HKDF
 * into the content key and nonce. The result is the header (salt, record size, our public
 * key) followed by the single encrypted record.
 */
export function encryptPushPayload(target: Pick<PushTarget, 'p256dh' | 'auth'>, plaintext: Buffer): Buffer {
  const browserKey = Buffer.from(target.p256dh, 'base64url');
  const authSecret = Buffer.from(target.auth, 'base64url');
  if (browserKey.length !== 65 || authSecret.length !== 16) throw new Error('invalid subscription keys');
  const ecdh = createECDH('prime256v1');
  const serverKey = ecdh.generateKeys();
  const sharedSecret = ecdh.computeSecret(browserKey);
  const salt = randomBytes(16);
  const keyMaterial = Buffer.from(
    hkdfSync('sha256', sharedSecret, authSecret, info('WebPush: info', browserKey, serverKey), 32),
  );
  const contentKey = Buffer.from(
    hkdfSync('sha256', keyMaterial, salt, info('Content-Encoding: aes128gcm'), 16),
  );
  const nonce = Buffer.from(hkdfSync('sha256', keyMaterial, salt, info('Content-Encoding: nonce'), 12));
  if (plaintext.length + 17 > recordSize) throw new Error('push payload too large');
  const cipher = createCipheriv('aes-128-gcm', contentKey, nonce);
  // 0x02 marks the last (here: only) record; no padding follows.
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.update(Buffer.from([2])), cipher.final()]);
  const header = Buffer.alloc(21);
  salt.copy(header, 0);
  header.writeUInt32BE(recordSize, 16);
  header.writeUInt8(serverKey.length, 20);
  return Buffer.concat([header, serverKey, sealed, cipher.getAuthTag()]);
}

/**
 * Sends Web Push messages (RFC 8030) signed with our VAPID key. 201/202 is delivered;
 * 404/410 means the browser unsubscribed; 429, 5xx and network failures are retryable;
 * any other answer is a refusal not worth repeating.
 */
export class WebPushSender {
  constructor(
    private readonly vapid: VapidKeys,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(target: PushTarget, payload: object, options: PushOptions = {}): Promise<PushOutcome> {
    const body = encryptPushPayload(target, Buffer.from(JSON.stringify(payload)));
    const headers: Record<string, string> = {
      authorization: this.vapid.authorization(target.endpoint),
      ttl: String(options.ttlSeconds ?? pushLimits.ttlSeconds),
      urgency: options.urgency ?? 'normal',
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
    };
    if (options.topic) headers.topic = options.topic;
    let response: Response;
    try {
      response = await fetch(target.endpoint, {
        method: 'POST',
        headers,
        body: new Uint8Array(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PushDeliveryError(`push service unreachable: ${(error as Error).message}`, true);
    }
    // The body is never shown to anyone; reading it frees the connection.
    const answer = (await response.text().catch(() => '')).slice(0, 200);
    if (response.status === 201 || response.status === 202 || response.status === 200) return 'delivered';
    if (response.status === 404 || response.status === 410) return 'gone';
    const retryable = response.status === 429 || response.status >= 500;
    throw new PushDeliveryError(`push service answered ${response.status} ${answer}`.trim(), retryable);
  }
}
