import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkVapid,
  decryptPushBody,
  startTestPushService,
  type TestPushService,
} from '../../test/push-service';
import { VapidKeys } from './vapid.keys';
import { encryptPushPayload, PushDeliveryError, WebPushSender } from './web-push.sender';

function vapidKeyPair() {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x as string, 'base64url'),
    Buffer.from(jwk.y as string, 'base64url'),
  ]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d as string };
}

const keys = vapidKeyPair();
const vapid = new VapidKeys(keys.publicKey, keys.privateKey, 'mailto:ops@example.test');
const sender = new WebPushSender(vapid, 2000);
let service: TestPushService;

beforeAll(async () => {
  service = await startTestPushService(keys.publicKey);
});
afterAll(async () => {
  await service?.close();
});

describe('WebPushSender', () => {
  it('sends a push the push service accepts: VAPID signed for its origin, aes128gcm the browser decrypts', async () => {
    const browser = service.subscribe();
    const payload = { title: 'Budi', body: 'Halo kak', url: '/x', tag: 'ticket-1' };
    const outcome = await sender.send({ endpoint: browser.endpoint, ...browser.keys }, payload, {
      urgency: 'high',
      topic: 'ticket-1',
    });
    expect(outcome).toBe('delivered');
    const [push] = service.pushesTo(browser);
    expect(push.problem).toBeNull();
    expect(push.payload).toEqual(payload);
    expect(push.headers).toMatchObject({
      ttl: '3600',
      urgency: 'high',
      topic: 'ticket-1',
      'content-encoding': 'aes128gcm',
    });
  });

  it('decrypts the example of RFC 8291 appendix A, so the test push service is a fair judge', () => {
    const body = Buffer.from(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
      'base64url',
    );
    const browser = {
      endpoint: 'https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV',
      keys: {
        p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
        auth: 'BTBZMqHH6r4Tts7J_aSIgg',
      },
      privateKey: Buffer.from('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94', 'base64url'),
    };
    expect(decryptPushBody(body, browser).toString()).toBe('When I grow up, I want to be a watermelon');
  });

  it('encrypts every push afresh: the same payload never gives the same bytes', () => {
    const browser = service.subscribe();
    const first = encryptPushPayload(browser.keys, Buffer.from('same'));
    const second = encryptPushPayload(browser.keys, Buffer.from('same'));
    expect(first.equals(second)).toBe(false);
    // salt(16) + rs(4) + idlen(1) + key(65) + text(4) + delimiter(1) + tag(16)
    expect(first.length).toBe(107);
  });

  it('signs a token another key cannot pass for, with the push service origin as aud', () => {
    const header = vapid.authorization('https://fcm.googleapis.com/fcm/send/abc');
    expect(checkVapid(header, 'https://fcm.googleapis.com', keys.publicKey)).toBeNull();
    expect(checkVapid(header, 'https://updates.push.services.mozilla.com', keys.publicKey)).toMatch(/aud/);
    expect(checkVapid(header, 'https://fcm.googleapis.com', vapidKeyPair().publicKey)).toBe('unexpected key');
    const forged = header.replace(
      /t=([^.]+)\.([^.]+)\./,
      (_, h) => `t=${h}.${Buffer.from('{"aud":"x"}').toString('base64url')}.`,
    );
    expect(checkVapid(forged, 'https://fcm.googleapis.com', keys.publicKey)).toBe('bad signature');
  });

  it('answers gone for 404 and 410, and throws retryable only for 429 and 5xx', async () => {
    const cases: Array<[number, 'gone' | 'retry' | 'refused']> = [
      [404, 'gone'],
      [410, 'gone'],
      [429, 'retry'],
      [503, 'retry'],
      [400, 'refused'],
      [413, 'refused'],
    ];
    for (const [status, expected] of cases) {
      const browser = service.subscribe();
      service.answers.set(new URL(browser.endpoint).pathname, [status]);
      const result = await sender
        .send({ endpoint: browser.endpoint, ...browser.keys }, { n: status })
        .catch((error: PushDeliveryError) => (error.retryable ? 'retry' : 'refused'));
      expect([status, result]).toEqual([status, expected]);
    }
  });

  it('treats an unreachable push service as retryable', async () => {
    const browser = service.subscribe();
    const error = await sender
      .send({ endpoint: 'http://127.0.0.1:1/push/x', ...browser.keys }, {})
      .catch((caught: PushDeliveryError) => caught);
    expect(error).toBeInstanceOf(PushDeliveryError);
    expect((error as PushDeliveryError).retryable).toBe(true);
  });
});
