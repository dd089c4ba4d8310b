import http from 'node:http';
import path from 'node:path';
import { mediaLimits } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../../platform/storage/local-file-storage';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { MediaService } from './media.service';
import { pngOf, uploadThroughLink } from './media.test-support';

let server: TestServer;
let ownerToken: string;
let ownerId: string;
let other: { clientId: string; userId: string; email: string };
let otherToken: string;

/** A second MediaService on the server's database, disk and secret: what the inbox gets. */
const mediaAt = (now?: () => Date) =>
  new MediaService(
    server.database.db,
    new LocalFileStorage(path.join(server.config.dataDir, 'media')),
    server.config.jwtSecret,
    { now },
  );

beforeAll(async () => {
  server = await startTestServer();
  const login = await server.login('owner@demo.test');
  ownerToken = login.accessToken;
  const me = await server.request<{ user: { id: string } }>('GET', '/api/identity/users/me', {
    token: ownerToken,
  });
  ownerId = me.body.user.id;
  other = await createClientWithUser(server.database.db);
  otherToken = (await server.login(other.email)).accessToken;
});
afterAll(async () => {
  await server?.close();
});

describe('upload link, PUT, resolve and read', () => {
  it('stores the file, resolves it for its uploader and serves the bytes through the signed link', async () => {
    const bytes = pngOf(64, 64);
    const { fileId, url } = await uploadThroughLink(server, ownerToken, {
      filename: 'my shop logo.png',
      contentType: 'image/png',
      bytes,
    });

    const [attachment] = await mediaAt().resolve(server.demoClientId!, `user:${ownerId}`, [fileId]);
    expect(attachment).toMatchObject({ id: fileId, mime: 'image/png', size: bytes.length });
    expect(attachment.name).toMatch(/^\d{13}_my_shop_logo\.png$/);

    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toMatch(/^inline; filename="\d+_my_shop_logo\.png"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses a second PUT of the same link with 409', async () => {
    const query = new URLSearchParams({ filename: 'a.txt', contentType: 'text/plain' });
    const link = await server.request<{ uploadUrl: string }>('GET', `/api/csp/upload/getLink?${query}`, {
      token: ownerToken,
    });
    const put = () =>
      fetch(`${server.url}${link.body.uploadUrl}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
    expect((await put()).status).toBe(200);
    const again = await put();
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ statusCode: 409, message: 'File is already uploaded' });
  });

  it('refuses a body of another content type than the link asked for, and an empty body', async () => {
    const query = new URLSearchParams({ filename: 'photo.png', contentType: 'image/png' });
    const link = await server.request<{ uploadUrl: string }>('GET', `/api/csp/upload/getLink?${query}`, {
      token: ownerToken,
    });
    const mismatch = await fetch(`${server.url}${link.body.uploadUrl}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/html' },
      body: '<script>alert(1)</script>',
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Content type does not match the upload link',
    });
    const empty = await fetch(`${server.url}${link.body.uploadUrl}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: '',
    });
    expect(empty.status).toBe(400);
  });

  it('refuses a body declared larger than 100 MB before reading it', async () => {
    const query = new URLSearchParams({ filename: 'big.pdf', contentType: 'application/pdf' });
    const link = await server.request<{ uploadUrl: string }>('GET', `/api/csp/upload/getLink?${query}`, {
      token: ownerToken,
    });
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${server.url}${link.body.uploadUrl}`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/pdf',
          'content-length': String(mediaLimits.uploadMaxBytes + 1),
        },
      });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('needs a user who may upload', async () => {
    const outsider = await createClientWithUser(server.database.db, { role: 'SAD' });
    const token = (await server.login(outsider.email)).accessToken;
    const query = new URLSearchParams({ filename: 'a.png', contentType: 'image/png' });
    const response = await server.request('GET', `/api/csp/upload/getLink?${query}`, { token });
    expect(response.status).toBe(403);
    expect((await server.request('GET', `/api/csp/upload/getLink?${query}`)).status).toBe(401);
  });
});

describe('signed links', () => {
  it('answers 403 to a forged or tampered signature', async () => {
    const { url } = await uploadThroughLink(server, ownerToken, {
      filename: 'a.txt',
      contentType: 'text/plain',
      bytes: Buffer.from('secret'),
    });
    const forged = url.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await fetch(`${server.url}${forged}`)).status).toBe(403);
    const later = url.replace(/expires=(\d+)/, (_match, value) => `expires=${Number(value) + 3600}`);
    const tampered = await fetch(`${server.url}${later}`);
    expect(tampered.status).toBe(403);
    expect(await tampered.json()).toMatchObject({ message: 'Link is invalid or expired' });
  });

  it('answers 403 to an expired read link and an expired upload link', async () => {
    const { fileId } = await uploadThroughLink(server, ownerToken, {
      filename: 'a.txt',
      contentType: 'text/plain',
      bytes: Buffer.from('old'),
    });
    const threeHoursAgo = () => new Date(Date.now() - 3 * 3600_000);
    const expired = mediaAt(threeHoursAgo).linkOf(server.demoClientId!, { id: fileId });
    expect((await fetch(`${server.url}${expired}`)).status).toBe(403);

    const upload = await mediaAt(threeHoursAgo).createUpload(server.demoClientId!, `user:${ownerId}`, {
      filename: 'late.txt',
      contentType: 'text/plain',
    });
    const put = await fetch(`${server.url}${upload.uploadUrl}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'too late',
    });
    expect(put.status).toBe(403);
  });

  it('serves an uploaded HTML file as a download that can never render or sniff', async () => {
    const { url } = await uploadThroughLink(server, ownerToken, {
      filename: 'page.html',
      contentType: 'text/html',
      bytes: Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    });
    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe('tenancy', () => {
  it("never lets one client resolve, re-sign or read another client's file", async () => {
    const { fileId, url } = await uploadThroughLink(server, otherToken, {
      filename: 'theirs.txt',
      contentType: 'text/plain',
      bytes: Buffer.from('not yours'),
    });
    await expect(mediaAt().resolve(server.demoClientId!, `user:${ownerId}`, [fileId])).rejects.toMatchObject({
      statusCode: 400,
      message: 'Attachment not found',
    });
    // The right client but another uploader cannot attach it either.
    await expect(mediaAt().resolve(other.clientId, `user:${ownerId}`, [fileId])).rejects.toMatchObject({
      statusCode: 400,
    });

    const resign = await server.request('GET', `/api/csp/image?media=${encodeURIComponent(url)}`, {
      token: ownerToken,
    });
    expect(resign.status).toBe(404);
    expect(resign.body).toMatchObject({ statusCode: 404, message: 'Media not available' });

    // A link signed for the demo client naming the other client's file is no link at all.
    const crossSigned = mediaAt().linkOf(server.demoClientId!, { id: fileId });
    expect((await fetch(`${server.url}${crossSigned}`)).status).toBe(403);

    const own = await server.request<{ url: string }>(
      'GET',
      `/api/csp/image?media=${encodeURIComponent(url)}`,
      {
        token: otherToken,
      },
    );
    expect(own.status).toBe(200);
    expect((await fetch(`${server.url}${own.body.url}`)).status).toBe(200);
  });
});

describe('GET /api/csp/image', () => {
  it("answers 'Media not available' for a provider's link no adapter resolves yet", async () => {
    const media = encodeURIComponent('https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1');
    const response = await server.request('GET', `/api/csp/image?media=${media}&mime=image/jpeg`, {
      token: ownerToken,
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ message: 'Media not available' });
  });

  it('hands a provider link to the resolver registered for its host', async () => {
    const service = mediaAt();
    const seen: string[] = [];
    service.registerResolver({
      hosts: ['api.telegram.org'],
      resolve: async ({ clientId, url }) => {
        seen.push(url.hostname);
        return service.saveFile(clientId, 'identity:telegram', {
          name: 'photo.jpg',
          mime: 'image/jpeg',
          bytes: Buffer.from('jpeg bytes'),
        });
      },
    });
    const link = await service.readableLink(
      server.demoClientId!,
      'https://api.telegram.org/file/bot1/photo.jpg',
    );
    expect(seen).toEqual(['api.telegram.org']);
    const response = await fetch(`${server.url}${link}`);
    expect(await response.text()).toBe('jpeg bytes');
  });
});

describe('POST /api/csp/image/multiAttachment', () => {
  it('keeps several files and answers each with a link', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(pngOf(10, 10))], { type: 'image/png' }), 'first photo.png');
    form.append('files', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'invoice.pdf');
    const response = await fetch(`${server.url}/api/csp/image/multiAttachment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}` },
      body: form,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      attachments: Array<{ id: string; name: string; mime: string; size: number; url: string }>;
    };
    expect(body.attachments).toHaveLength(2);
    expect(body.attachments[0].name).toMatch(/^\d+_first_photo\.png$/);
    expect(body.attachments[1]).toMatchObject({ mime: 'application/pdf', size: 8 });
    const ids = body.attachments.map((attachment) => attachment.id);
    const resolved = await mediaAt().resolve(server.demoClientId!, `user:${ownerId}`, ids);
    expect(resolved.map((file) => file.id)).toEqual(ids);
    const pdf = await fetch(`${server.url}${body.attachments[1].url}`);
    expect(await pdf.text()).toBe('%PDF-1.4');
  });

  it('refuses a request without files, and a user without the inbox', async () => {
    const empty = await fetch(`${server.url}/api/csp/image/multiAttachment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}` },
      body: new FormData(),
    });
    expect(empty.status).toBe(400);
    const outsider = await createClientWithUser(server.database.db, { role: 'SAD' });
    const token = (await server.login(outsider.email)).accessToken;
    const form = new FormData();
    form.append('files', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
    const refused = await fetch(`${server.url}/api/csp/image/multiAttachment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(refused.status).toBe(403);
  });
});
