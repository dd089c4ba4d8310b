import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, addVary, registerCompression } from './compression';

const page = {
  data: Array.from({ length: 50 }, (_, id) => ({ id, name: `Pelanggan ${id}`, status: 'ASSIGNED' })),
};
const pageText = JSON.stringify(page);
const csv = `id,nama\n${Array.from({ length: 200 }, (_, id) => `${id},Pelanggan ${id}`).join('\n')}`;

function appWithRoutes() {
  const app = Fastify();
  registerCompression(app, { minBytes: 1400, asyncFromBytes: 64 * 1024 });
  app.get('/page', async () => page);
  app.get('/small', async () => ({ ok: true }));
  app.get('/big', async () => ({
    rows: Array.from({ length: 5000 }, (_, id) => ({ id, text: `baris ${id}` })),
  }));
  app.get('/csv', async (_request, reply) => reply.type('text/csv; charset=utf-8').send(csv));
  app.get('/image', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(4000, 7)));
  app.get('/with-origin', async (_request, reply) => {
    addVary(reply, 'Origin');
    return page;
  });
  // 800 characters of two bytes each: under the threshold as UTF-16 units, over it as UTF-8.
  app.get('/wide', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ä'.repeat(800)));
  app.get('/error', async (_request, reply) => reply.code(500).send({ message: 'x'.repeat(2000) }));
  return app;
}

describe('answers compressed for clients that accept gzip', () => {
  const app = appWithRoutes();
  afterAll(() => app.close());

  it('gzips a JSON page for a browser, and the bytes decode to the same answer', async () => {
    const answer = await app.inject({
      url: '/page',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    expect(answer.rawPayload.length).toBeLessThan(Buffer.byteLength(pageText) / 3);
    expect(gunzipSync(answer.rawPayload).toString()).toBe(pageText);
  });

  it('sends the page plain to a client that does not ask, or refuses gzip, still naming the header in Vary', async () => {
    for (const header of [undefined, 'identity', 'br', 'gzip;q=0, *;q=1', 'deflate, *;q=0']) {
      const answer = await app.inject({
        url: '/page',
        headers: header === undefined ? {} : { 'accept-encoding': header },
      });
      expect(answer.headers['content-encoding'], String(header)).toBeUndefined();
      expect(answer.body).toBe(pageText);
      expect(answer.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('leaves small answers, HEAD requests and binary types as they are', async () => {
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });

    const head = await app.inject({ method: 'HEAD', url: '/page', headers: { 'accept-encoding': 'gzip' } });
    expect(head.headers['content-encoding']).toBeUndefined();

    const image = await app.inject({ url: '/image', headers: { 'accept-encoding': 'gzip' } });
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.rawPayload.length).toBe(4000);
  });

  it('gzips text such as an export, and error answers too', async () => {
    const text = await app.inject({ url: '/csv', headers: { 'accept-encoding': 'gzip' } });
    expect(text.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(text.rawPayload).toString()).toBe(csv);

    const failed = await app.inject({ url: '/error', headers: { 'accept-encoding': 'gzip' } });
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(gunzipSync(failed.rawPayload).toString())).toEqual({ message: 'x'.repeat(2000) });
  });

  it("measures a short string's UTF-8 bytes, not its characters", async () => {
    const answer = await app.inject({ url: '/wide', headers: { 'accept-encoding': 'gzip' } });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(answer.rawPayload).toString()).toBe('ä'.repeat(800));
  });

  it('compresses a large answer off the request thread and it decodes whole', async () => {
    const answer = await app.inject({ url: '/big', headers: { 'accept-encoding': 'x-gzip' } });
    expect(answer.headers['content-encoding']).toBe('gzip');
    const rows = JSON.parse(gunzipSync(answer.rawPayload).toString()).rows;
    expect(rows).toHaveLength(5000);
    expect(rows[4999]).toEqual({ id: 4999, text: 'baris 4999' });
  });

  it("keeps the Vary fields another hook set (the widget's Origin)", async () => {
    const answer = await app.inject({ url: '/with-origin', headers: { 'accept-encoding': 'gzip' } });
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
  });
});

describe('over a real connection', () => {
  const app = appWithRoutes();
  let port = 0;
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('sends fewer bytes on the wire than the JSON, with a length that matches them', async () => {
    const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const sent = request(
          { host: '127.0.0.1', port, path: '/page', headers: { 'accept-encoding': 'gzip, deflate, br' } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          },
        );
        sent.on('error', reject);
        sent.end();
      },
    );
    expect(headers['content-encoding']).toBe('gzip');
    expect(Number(headers['content-length'])).toBe(body.length);
    expect(JSON.parse(gunzipSync(body).toString())).toEqual(page);
  });
});

describe('Accept-Encoding', () => {
  it('allows gzip when named or covered by *, with a quality above zero', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('br;q=1, *;q=0.1')).toBe(true);
    expect(acceptsGzip(['deflate', 'gzip'])).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip; q=0.0, *')).toBe(false);
  });
});
