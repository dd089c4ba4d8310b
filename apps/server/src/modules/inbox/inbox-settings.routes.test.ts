import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;
let stranger: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  const other = await createClientWithUser(kit.server.database.db);
  stranger = (await kit.server.login(other.email)).accessToken;
});
afterAll(async () => {
  await kit?.server.close();
});

const call = <Body = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) =>
  kit.server.request<Body>(method, path, { token, body });

describe('categories and configuration', () => {
  it('keeps category names unique and lets only settings managers change them', async () => {
    const name = `Pengembalian ${Date.now()}`;
    const created = await call<{ id: string }>('POST', '/api/csp/categories', kit.tokens.supervisor, {
      name,
    });
    expect(created.status).toBe(201);
    expect(
      (await call('POST', '/api/csp/categories', kit.tokens.owner, { name: name.toUpperCase() })).status,
    ).toBe(409);
    expect((await call('POST', '/api/csp/categories', kit.tokens.agent1, { name: 'Lain' })).status).toBe(403);
    const renamed = await call('PUT', `/api/csp/categories/${created.body.id}`, kit.tokens.owner, {
      name: `${name} (retur)`,
      description: 'Retur dan refund',
    });
    expect(renamed.body).toMatchObject({ name: `${name} (retur)`, description: 'Retur dan refund' });
    expect(
      (await call('PUT', `/api/csp/categories/${created.body.id}`, stranger, { name: 'X' })).status,
    ).toBe(404);
    expect((await call('DELETE', `/api/csp/categories/${created.body.id}`, stranger)).status).toBe(404);
    expect((await call('DELETE', `/api/csp/categories/${created.body.id}`, kit.tokens.owner)).status).toBe(
      204,
    );
    const list = await call<{ content: Array<{ id: string }> }>(
      'GET',
      '/api/csp/categories',
      kit.tokens.agent1,
    );
    expect(list.body.content.map((category) => category.id)).not.toContain(created.body.id);
  });

  it('reads the starting switches for a client that never saved, and saves only what is given', async () => {
    const fresh = await call('GET', '/api/csp/configuration', stranger);
    expect(fresh.body).toEqual({
      featureCs: 0,
      isAutoAssignFeature: 0,
      isDisplayChatroomEmoji: 1,
      isDisplayChatroomAttachment: 1,
      isDisplayChatroomCSName: 1,
    });
    const saved = await call('PUT', '/api/csp/configuration', stranger, { isDisplayChatroomEmoji: 0 });
    expect(saved.body).toEqual({ ...fresh.body, isDisplayChatroomEmoji: 0 });
    const again = await call('PUT', '/api/csp/configuration', stranger, { isAutoAssignFeature: 1 });
    expect(again.body).toEqual({ ...fresh.body, isDisplayChatroomEmoji: 0, isAutoAssignFeature: 1 });
    expect((await call('GET', '/api/csp/configuration', kit.tokens.agent1)).body).toMatchObject({
      isDisplayChatroomEmoji: 1,
      isDisplayChatroomAttachment: 1,
      isDisplayChatroomCSName: 1,
    });
    expect((await call('PUT', '/api/csp/configuration', kit.tokens.agent1, { featureCs: 1 })).status).toBe(
      403,
    );
  });
});
