import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelAccounts, livechatWidgets, users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { createWidget, registerVisitor, type TestWidget } from './visitor.test-support';

let server: TestServer;
let client: { clientId: string; userId: string; email: string };
let widget: TestWidget;

beforeAll(async () => {
  server = await startTestServer();
  client = await createClientWithUser(server.database.db);
  widget = await createWidget(server.database.db, client.clientId);
});
afterAll(async () => {
  await server?.close();
});

const configOf = (widgetId: string, origin?: string) =>
  server.request<Record<string, unknown>>('GET', `/api/livechat/widget/${widgetId}/config`, {
    headers: origin ? { origin } : {},
  });

describe('widget configuration', () => {
  it('answers what the widget shows, and marks the widget connected on its first load from its domain', async () => {
    const foreign = await configOf(widget.id, 'https://elsewhere.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('This website may not use this live chat widget');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const response = await configOf(widget.id, widget.domain);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(widget.domain);
    expect(response.body).toEqual({
      widgetId: widget.id,
      name: widget.name,
      colour: '#0CA678',
      logoUrl: null,
      online: true,
      onlineTitle: 'Kami online',
      onlineMessage: 'Ada yang bisa kami bantu?',
      offlineTitle: 'Kami offline',
      offlineMessage: 'Tinggalkan pesan dan email Anda.',
      prechatFields: [{ label: 'Nomor pesanan', customizedData: 'orderNumber', required: false }],
      consentText: 'Saya setuju.',
    });
    const [row] = await server.database.db
      .select({ connectedAt: livechatWidgets.connectedAt, status: channelAccounts.status })
      .from(livechatWidgets)
      .innerJoin(channelAccounts, eq(channelAccounts.id, livechatWidgets.channelAccountId))
      .where(eq(livechatWidgets.id, widget.id));
    expect(row.connectedAt).not.toBeNull();
    expect(row.status).toBe('CONNECTED');
  });

  it('does not mark a widget connected when it is loaded from the app itself (a preview)', async () => {
    const preview = await createWidget(server.database.db, client.clientId);
    const response = await configOf(preview.id, server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(server.url);
    const [row] = await server.database.db
      .select({ connectedAt: livechatWidgets.connectedAt })
      .from(livechatWidgets)
      .where(eq(livechatWidgets.id, preview.id));
    expect(row.connectedAt).toBeNull();
  });

  it('answers 404 for an unknown or removed widget', async () => {
    const unknown = await configOf('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Live chat widget not found',
    });
    const removed = await createWidget(server.database.db, client.clientId, { deletedAt: new Date() });
    expect((await configOf(removed.id)).status).toBe(404);
  });

  it('says offline when no agent is online, and then requires an e-mail to answer to', async () => {
    const offline = await createClientWithUser(server.database.db);
    const offlineWidget = await createWidget(server.database.db, offline.clientId);
    await server.database.db
      .update(users)
      .set({ agentStatus: 'OFFLINE' })
      .where(eq(users.id, offline.userId));
    expect((await configOf(offlineWidget.id)).body.online).toBe(false);

    const path = `/api/livechat/widget/${offlineWidget.id}/visitors`;
    const withoutEmail = await server.request('POST', path, {
      body: { name: 'Vina', fields: {}, consent: true },
    });
    expect(withoutEmail.status).toBe(400);
    expect(withoutEmail.body.message).toBe('Email is required when no agent is online');
    const withEmail = await server.request('POST', path, {
      body: { name: 'Vina', email: 'vina@example.com', fields: {}, consent: true },
    });
    expect(withEmail.status).toBe(200);
  });
});

describe('visitor registration', () => {
  it('issues a signed visitor token for this widget that is no agent token', async () => {
    const { token, visitorId } = await registerVisitor(server, widget, { fields: { orderNumber: 'INV-1' } });
    const claims = decodeJwt(token);
    expect(claims.aud).toBe('livechat-visitor');
    expect(claims).toMatchObject({
      widgetId: widget.id,
      clientId: client.clientId,
      channelAccountId: widget.channelAccountId,
      visitorId,
      name: 'Vina Visitor',
      fields: { orderNumber: 'INV-1' },
    });
    expect((claims.exp ?? 0) - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 86_400);
    const asAgent = await server.request('GET', '/api/identity/users/me', { token });
    expect(asAgent.status).toBe(401);
  });

  it('refuses a form without consent or without a required field', async () => {
    const path = `/api/livechat/widget/${widget.id}/visitors`;
    const noConsent = await server.request('POST', path, {
      body: { name: 'Vina', fields: {}, consent: false },
    });
    expect(noConsent.status).toBe(400);
    const strict = await createWidget(server.database.db, client.clientId, {
      prechatFields: [{ label: 'Nomor pesanan', customizedData: 'orderNumber', required: true }],
    });
    const missing = await server.request('POST', `/api/livechat/widget/${strict.id}/visitors`, {
      body: { name: 'Vina', fields: {}, consent: true },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Required fields are empty: Nomor pesanan');
  });

  it('answers the browser preflight for the widget domain', async () => {
    const response = await fetch(`${server.url}/api/livechat/widget/${widget.id}/visitors`, {
      method: 'OPTIONS',
      headers: { origin: widget.domain, 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(widget.domain);
    expect(response.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(response.headers.get('vary')).toBe('Origin');
  });
});

describe('visitor uploads', () => {
  const upload = async (token: string | null, file: { name: string; type: string; bytes: Uint8Array }) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
    const response = await fetch(`${server.url}/api/livechat/upload?widgetId=${widget.id}`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), origin: widget.domain },
      body: form,
    });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

  it('keeps an image within the live-chat rules and answers a link to it', async () => {
    const { token } = await registerVisitor(server, widget);
    const response = await upload(token, { name: 'foto.png', type: 'image/png', bytes: png });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(widget.domain);
    expect(response.body).toMatchObject({ mime: 'image/png', size: png.length, type: 'image' });
    const file = await fetch(`${server.url}${response.body.url}`);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
  });

  it('refuses a type or size the live chat does not take, and a missing or forged token', async () => {
    const { token } = await registerVisitor(server, widget);
    const gif = await upload(token, { name: 'anim.gif', type: 'image/gif', bytes: png });
    expect(gif.status).toBe(400);
    expect(gif.body.message).toBe('Media type is not supported on this channel');
    const large = await upload(token, {
      name: 'big.jpg',
      type: 'image/jpeg',
      bytes: new Uint8Array(5 * 1024 * 1024 + 10),
    });
    expect(large.status).toBe(413);
    expect(large.body.message).toBe('Media is too large for this channel');
    expect((await upload(null, { name: 'foto.png', type: 'image/png', bytes: png })).status).toBe(401);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await upload(forged, { name: 'foto.png', type: 'image/png', bytes: png })).status).toBe(401);
  });
});

describe('widget script and demo page', () => {
  it('serves the built widget to any site, under 30 KB gzipped', async () => {
    const widgetRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../widget');
    execFileSync(process.execPath, [path.join(widgetRoot, 'build.mjs')], { stdio: 'pipe' });
    const response = await fetch(`${server.url}/widget.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const body = Buffer.from(await response.arrayBuffer());
    expect(gzipSync(body).length).toBeLessThan(30 * 1024);
  });

  it('serves the Toko Demo storefront with the demo widget and no inline script', async () => {
    const [demoWidget] = await server.database.db
      .select({ id: livechatWidgets.id })
      .from(livechatWidgets)
      .where(eq(livechatWidgets.clientId, server.demoClientId!));
    const page = await fetch(`${server.url}/demo/visitor`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Toko Demo');
    expect(html).toContain(`<script src="/widget.js" data-widget-id="${demoWidget.id}" async></script>`);
    expect(html.match(/<script(?![^>]*\ssrc=)/g)).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const english = await fetch(`${server.url}/demo/visitor`, { headers: { 'accept-language': 'en-US,en' } });
    expect(await english.text()).toContain('Everyday shopping');
  });
});

describe('registration rate limit', () => {
  it('refuses more than 20 visitor registrations per address in ten minutes', async () => {
    const limited = await createWidget(server.database.db, client.clientId);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      const response = await server.request('POST', `/api/livechat/widget/${limited.id}/visitors`, {
        body: { name: 'Vina', email: 'vina@example.com', fields: {}, consent: true },
      });
      statuses.push(response.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
