import path from 'node:path';
import type { LivechatWidgetView } from '@app/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelAccounts } from '../../db/schema';
import { LocalFileStorage } from '../../platform/storage/local-file-storage';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { MediaService } from '../media/media.service';
import { jpegOf, pngOf, uploadThroughLink } from '../media/media.test-support';
import { LivechatWidgetService } from './livechat-widget.service';

let server: TestServer;
let ownerToken: string;
let logoId: string;
let other: { clientId: string; userId: string; email: string };
let otherToken: string;
let port = 4100;

/** A domain no other test uses: loopback hosts exist without asking a resolver. */
const freshDomain = () => {
  port += 1;
  return `http://localhost:${port}`;
};

const bodyOf = (overrides: Record<string, unknown> = {}) => ({
  name: 'Toko Demo chat',
  domain: freshDomain(),
  logoFileId: logoId,
  colour: '#2563EB',
  onlineTitle: 'Halo! Ada yang bisa dibantu?',
  onlineMessage: 'Tim kami siap membantu Anda.',
  offlineTitle: 'Kami sedang offline',
  offlineMessage: 'Tinggalkan pesan, kami balas lewat e-mail.',
  prechatFields: [{ label: 'Nomor pesanan', customizedData: 'orderNumber', required: false }],
  consentText: 'Saya setuju data saya disimpan untuk menjawab pertanyaan ini.',
  ...overrides,
});

const create = (body: unknown, token = ownerToken) =>
  server.request<LivechatWidgetView & { message?: string }>('POST', '/api/livechat/widgets', { token, body });

const logo = async (file: { filename: string; contentType: string; bytes: Buffer }, token = ownerToken) =>
  (await uploadThroughLink(server, token, file)).fileId;

beforeAll(async () => {
  server = await startTestServer();
  ownerToken = (await server.login('owner@demo.test')).accessToken;
  logoId = await logo({ filename: 'logo.png', contentType: 'image/png', bytes: pngOf(320, 320) });
  other = await createClientWithUser(server.database.db);
  otherToken = (await server.login(other.email)).accessToken;
});
afterAll(async () => {
  await server?.close();
});

describe('creating a widget', () => {
  it('creates it with a not-connected LVC channel account, an embed code and a logo link', async () => {
    const body = bodyOf();
    const response = await create(body);
    expect(response.status).toBe(200);
    const widget = response.body;
    expect(widget).toMatchObject({
      name: body.name,
      domain: body.domain,
      connected: false,
      connectedAt: null,
    });
    expect(widget.embedCode).toBe(
      `<script src="${server.url}/widget.js" data-widget-id="${widget.id}" async></script>`,
    );
    const logoResponse = await fetch(widget.logoUrl!);
    expect(logoResponse.status).toBe(200);
    expect(logoResponse.headers.get('content-type')).toBe('image/png');

    const [account] = await server.database.db
      .select()
      .from(channelAccounts)
      .where(
        and(
          eq(channelAccounts.id, widget.channelAccountId),
          eq(channelAccounts.clientId, server.demoClientId!),
        ),
      );
    expect(account).toMatchObject({ channel: 'LVC', status: 'NOT_CONNECTED', name: body.name });

    const list = await server.request<{ content: LivechatWidgetView[] }>('GET', '/api/livechat/widgets', {
      token: ownerToken,
    });
    expect(list.body.content.map((item) => item.id)).toContain(widget.id);
  });

  it('accepts a jpeg logo and keeps only the origin of the domain', async () => {
    const jpeg = await logo({ filename: 'logo.jpeg', contentType: 'image/jpeg', bytes: jpegOf(200, 100) });
    const response = await create(bodyOf({ logoFileId: jpeg, domain: 'HTTP://LocalHost:4999/shop/page' }));
    expect(response.status).toBe(200);
    expect(response.body.domain).toBe('http://localhost:4999');
  });
});

describe('validation', () => {
  const refusal = async (overrides: Record<string, unknown>) => {
    const response = await create(bodyOf(overrides));
    return { status: response.status, message: response.body.message ?? '' };
  };

  it('needs every field', async () => {
    const response = await create({});
    expect(response.status).toBe(400);
    for (const field of ['name', 'logoFileId', 'consentText', 'onlineTitle']) {
      const { [field]: _left, ...rest }: Record<string, unknown> = bodyOf();
      expect((await create(rest)).status).toBe(400);
    }
    expect(await refusal({ name: '   ' })).toMatchObject({
      status: 400,
      message: expect.stringContaining('Name is required'),
    });
  });

  it('checks the domain: scheme, existence and duplicates across clients', async () => {
    expect(await refusal({ domain: 'toko.example.com' })).toEqual({
      status: 400,
      message: 'body.domain: Domain must start with http:// or https://',
    });
    expect(await refusal({ domain: 'https://no-such-shop.invalid' })).toEqual({
      status: 400,
      message: 'Domain not found',
    });

    const taken = freshDomain();
    expect((await create(bodyOf({ domain: taken }))).status).toBe(200);
    const otherLogo = await logo(
      { filename: 'l.png', contentType: 'image/png', bytes: pngOf(32, 32) },
      otherToken,
    );
    const duplicate = await create(
      bodyOf({ domain: taken.toUpperCase(), logoFileId: otherLogo }),
      otherToken,
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toBe('Domain already registered');
  });

  it('keeps a domain to one widget when two saves race for it', async () => {
    const domain = freshDomain();
    const answers = await Promise.all([create(bodyOf({ domain })), create(bodyOf({ domain }))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.message).toBe('Domain already registered');
  });

  it('checks the logo: its uploader, type, size and pixels', async () => {
    const theirs = await logo(
      { filename: 'l.png', contentType: 'image/png', bytes: pngOf(32, 32) },
      otherToken,
    );
    expect(await refusal({ logoFileId: theirs })).toEqual({ status: 400, message: 'Logo not found' });

    const gif = await logo({ filename: 'l.gif', contentType: 'image/gif', bytes: Buffer.from('GIF89a') });
    expect(await refusal({ logoFileId: gif })).toEqual({
      status: 400,
      message: 'Logo must be a png, jpg or jpeg image',
    });
    const fake = await logo({ filename: 'l.png', contentType: 'image/png', bytes: Buffer.from('<svg/>') });
    expect((await refusal({ logoFileId: fake })).message).toBe('Logo must be a png, jpg or jpeg image');

    const wide = await logo({ filename: 'wide.png', contentType: 'image/png', bytes: pngOf(321, 100) });
    expect(await refusal({ logoFileId: wide })).toEqual({
      status: 400,
      message: 'Logo must be at most 320x320 pixels',
    });
    const tallJpeg = await logo({ filename: 't.jpg', contentType: 'image/jpeg', bytes: jpegOf(100, 400) });
    expect((await refusal({ logoFileId: tallJpeg })).message).toBe('Logo must be at most 320x320 pixels');

    const heavy = Buffer.concat([pngOf(100, 100), Buffer.alloc(5 * 1024 * 1024)]);
    const big = await logo({ filename: 'big.png', contentType: 'image/png', bytes: heavy });
    expect(await refusal({ logoFileId: big })).toEqual({ status: 400, message: 'Logo must be at most 5 MB' });
  });

  it('checks colour, titles, messages and the consent text', async () => {
    expect((await refusal({ colour: 'blue' })).message).toContain('Colour must be a hex colour');
    expect((await refusal({ onlineTitle: 'x'.repeat(31) })).message).toContain(
      'Title must be at most 30 characters',
    );
    expect((await refusal({ offlineTitle: 'x'.repeat(30) })).status).toBe(200);
    expect((await refusal({ offlineMessage: 'x'.repeat(81) })).message).toContain(
      'Message must be at most 80 characters',
    );
    expect((await refusal({ consentText: '' })).message).toContain('Consent box text is required');
  });

  it('checks the pre-chat form: at most 3 extras, a label and a unique customized-data choice each', async () => {
    const field = (customizedData: string, label = 'Label') => ({ label, customizedData, required: true });
    expect(
      (await refusal({ prechatFields: [field('phone'), field('email'), field('note'), field('company')] }))
        .message,
    ).toContain('At most 3 extra components');
    expect((await refusal({ prechatFields: [field('phone'), field('phone')] })).message).toContain(
      'Customized data must be unique',
    );
    expect((await refusal({ prechatFields: [field('phone', '')] })).message).toContain(
      'Field label is required',
    );
    expect((await refusal({ prechatFields: [field('')] })).message).toContain('Customized data is required');
    expect((await refusal({ prechatFields: [field('phone'), field('email'), field('note')] })).status).toBe(
      200,
    );
  });
});

describe('editing, connecting and deleting', () => {
  it('updates the settings, shows the first load as connected, and frees the domain on delete', async () => {
    const created = (await create(bodyOf())).body;
    const update = await server.request<LivechatWidgetView>('PUT', `/api/livechat/widgets/${created.id}`, {
      token: ownerToken,
      body: bodyOf({ domain: created.domain, onlineTitle: 'Selamat datang' }),
    });
    expect(update.status).toBe(200);
    expect(update.body.onlineTitle).toBe('Selamat datang');

    const media = new MediaService(
      server.database.db,
      new LocalFileStorage(path.join(server.config.dataDir, 'media')),
      server.config.jwtSecret,
    );
    await new LivechatWidgetService(server.database.db, media).markConnected(
      server.demoClientId!,
      created.id,
    );
    const read = await server.request<LivechatWidgetView>('GET', `/api/livechat/widgets/${created.id}`, {
      token: ownerToken,
    });
    expect(read.body.connected).toBe(true);
    expect(read.body.connectedAt).not.toBeNull();
    const [account] = await server.database.db
      .select()
      .from(channelAccounts)
      .where(eq(channelAccounts.id, created.channelAccountId));
    expect(account.status).toBe('CONNECTED');

    const removed = await server.request('DELETE', `/api/livechat/widgets/${created.id}`, {
      token: ownerToken,
    });
    expect(removed.status).toBe(200);
    expect(
      (await server.request('GET', `/api/livechat/widgets/${created.id}`, { token: ownerToken })).status,
    ).toBe(404);
    expect((await create(bodyOf({ domain: created.domain }))).status).toBe(200);
  });
});

describe('access', () => {
  it("answers 404 for another client's widget, however it is asked", async () => {
    const created = (await create(bodyOf())).body;
    const path = `/api/livechat/widgets/${created.id}`;
    expect((await server.request('GET', path, { token: otherToken })).status).toBe(404);
    expect((await server.request('PUT', path, { token: otherToken, body: bodyOf() })).status).toBe(404);
    expect((await server.request('DELETE', path, { token: otherToken })).status).toBe(404);
    const list = await server.request<{ content: LivechatWidgetView[] }>('GET', '/api/livechat/widgets', {
      token: otherToken,
    });
    expect(list.body.content.map((widget) => widget.id)).not.toContain(created.id);
  });

  it('refuses an agent with 403: they may neither list nor create widgets', async () => {
    const agentToken = (await server.login('agent1@demo.test')).accessToken;
    expect((await server.request('GET', '/api/livechat/widgets', { token: agentToken })).status).toBe(403);
    const refused = await create(bodyOf(), agentToken);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You have no permission to access this menu.');
  });
});
