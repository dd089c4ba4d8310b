import type { searchResponse } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startDemoServer } from '../../test/demo-staff';
import { createClientWithUser } from '../../test/factories';
import { createChannelAccount, createConversation } from '../../test/inbox-factories';
import type { TestServer } from '../../test/test-server';
import { wordsEveryMatchHolds } from './ticket-search.repository';

type SearchResponse = z.infer<typeof searchResponse>;

let server: TestServer;
let clientId: string;
let userIds: Record<string, string>;
let tokens: Record<string, string>;
let noPermissionToken: string;
let foreignTicketId: number;
const ids: Record<'budi' | 'siti' | 'rina' | 'formula', number> = {} as never;
/** This file's tickets live in March 2020, so nothing else the database holds is in range. */
const march = { createdFrom: '2020-03-01T00:00:00+07:00', createdTo: '2020-03-31T23:59:59.999+07:00' };
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ({ server, clientId, userIds, tokens } = await startDemoServer(['owner', 'agent1', 'agent2']));
  const db = server.database.db;
  const whatsApp = await createChannelAccount(db, clientId, { channel: 'WAP', name: 'WhatsApp Toko' });

  const budi = await createConversation(db, {
    clientId,
    channelAccount: whatsApp,
    customer: { name: 'Budi Santoso', phone: '+6281234567890' },
    ticket: { status: 'ASSIGNED', assigneeId: userIds.agent1, createdAt: at('2020-03-10T03:00:00Z') },
    messages: [
      { text: 'Selamat pagi, paket zebracadabra saya belum datang' },
      { text: 'Baik kak, kami cek dulu ya', senderType: 'AGENT', senderId: userIds.agent1 },
      { text: 'Halo kak, <b>x</b> <script>alert(1)</script> resi zebracadabra mana?' },
    ],
  });
  const siti = await createConversation(db, {
    clientId,
    customer: { name: 'Siti Aminah', phone: '+628555000111' },
    ticket: { status: 'ASSIGNED', assigneeId: userIds.agent2, createdAt: at('2020-03-11T03:00:00Z') },
    messages: [{ text: 'Apakah zebracadabra ready warna merah?' }],
  });
  const rina = await createConversation(db, {
    clientId,
    customer: { name: 'Rina Budiman' },
    ticket: {
      status: 'CLOSED',
      assigneeId: userIds.agent2,
      closedBy: userIds.agent2,
      closedAt: at('2020-03-12T05:00:00Z'),
      remarks: 'Selesai, pelanggan puas',
      tags: ['vip', 'retur'],
      priority: 1,
      createdAt: at('2020-03-12T03:00:00Z'),
    },
    messages: [{ text: 'Terima kasih banyak' }, { text: 'Sama-sama', senderType: 'AGENT' }],
  });
  const formula = await createConversation(db, {
    clientId,
    customer: { name: '=cmd|/c calc!A1', phone: '+6289900011122' },
    ticket: {
      remarks: '@SUM(1,2)',
      subject: 'Kata "kutip", koma\nbaris',
      createdAt: at('2020-03-20T03:00:00Z'),
    },
    messages: [{ text: '-2+3 hitung' }],
  });
  Object.assign(ids, {
    budi: budi.ticket.id,
    siti: siti.ticket.id,
    rina: rina.ticket.id,
    formula: formula.ticket.id,
  });

  const other = await createClientWithUser(db);
  const foreign = await createConversation(db, {
    clientId: other.clientId,
    customer: { name: 'Budi Foreign' },
    ticket: { createdAt: at('2020-03-10T04:00:00Z') },
    messages: [{ text: 'zebracadabra dari klien lain' }],
  });
  foreignTicketId = foreign.ticket.id;
  const noPermission = await createClientWithUser(db, { role: 'SAD' });
  noPermissionToken = (await server.login(noPermission.email)).accessToken;
});
afterAll(async () => {
  await server?.close();
});

async function search(who: string, query: Record<string, string | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  return server.request<SearchResponse>('GET', `/api/ticket/search?${params}`, { token: tokens[who] });
}
const idsOf = (response: { body: SearchResponse }) => response.body.content.map((hit) => hit.ticket.id);

describe('GET /api/ticket/search', () => {
  it('finds a word in messages with a marked snippet of the newest matching message', async () => {
    const response = await search('owner', { keyword: 'zebracadabra' });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([ids.siti, ids.budi]);
    const budi = response.body.content[1];
    expect(budi.message?.snippet).toContain('[[zebracadabra]]');
    // The message's HTML comes back as the text it is; nothing was interpreted or added.
    expect(budi.message?.snippet).toContain('<b>x</b>');
    expect(budi.message?.snippet).toContain('<script>alert(1)</script>');
    expect(budi.message?.snippet.replaceAll('[[', '').replaceAll(']]', '')).toContain(
      '<script>alert(1)</script> resi zebracadabra mana',
    );
    expect(idsOf(response)).not.toContain(foreignTicketId);
  });

  it('finds the snippet whatever the case of the keyword and of the message', async () => {
    const april = { createdFrom: '2020-04-01T00:00:00+07:00', createdTo: '2020-04-30T23:59:59.999+07:00' };
    const shouting = await createConversation(server.database.db, {
      clientId,
      customer: { name: 'Pelanggan Kapital' },
      ticket: { createdAt: at('2020-04-02T03:00:00Z') },
      messages: [{ text: 'Paket SamudraBiru sudah sampai?' }, { text: 'Terima kasih' }],
    });
    for (const keyword of ['samudrabiru', 'SAMUDRABIRU paket', 'samudrabiru -hujan', '"paket samudrabiru"']) {
      const response = await search('owner', { keyword, ...april });
      expect(idsOf(response), keyword).toEqual([shouting.ticket.id]);
      expect(response.body.content[0].message?.snippet, keyword).toContain('[[SamudraBiru]]');
    }
  });

  it('understands web search syntax: phrases and exclusions', async () => {
    expect(idsOf(await search('owner', { keyword: '"belum datang"' }))).toEqual([ids.budi]);
    expect(idsOf(await search('owner', { keyword: 'zebracadabra -merah' }))).toEqual([ids.budi]);
  });

  it('falls back to customer names and phone numbers by their parts', async () => {
    const byName = await search('owner', { keyword: 'budi', ...march });
    expect(idsOf(byName)).toEqual([ids.rina, ids.budi]);
    expect(byName.body.content.every((hit) => hit.message === null)).toBe(true);
    const byPhone = await search('owner', { keyword: '1234567', ...march });
    expect(idsOf(byPhone)).toEqual([ids.budi]);
    const international = await search('owner', { keyword: '+62 812-3456-7890', ...march });
    expect(idsOf(international)).toEqual([ids.budi]);
    // As numbers are written in Indonesia: the leading 0 stands for +62.
    const local = await search('owner', { keyword: '0812-3456-7890', ...march });
    expect(idsOf(local)).toEqual([ids.budi]);
  });

  it('reads the digits of a keyword as a phone number only when the keyword is one', async () => {
    // Budi's number holds 1234567, but an invoice number or words with digits are no phone number.
    expect(idsOf(await search('owner', { keyword: 'INV/1234567', ...march }))).toEqual([]);
    expect(idsOf(await search('owner', { keyword: 'zebracadabra 1234567', ...march }))).toEqual([]);
  });

  it('finds a name of several words as typed: each word narrows the index, the whole is then matched', async () => {
    const found = async (keyword: string) => idsOf(await search('owner', { keyword, ...march }));
    expect(await found('Budi Santoso')).toEqual([ids.budi]);
    expect(await found('budi sant')).toEqual([ids.budi]);
    expect(await found('RINA BUDIMAN')).toEqual([ids.rina]);
    // Both words are in the name, but not as typed.
    expect(await found('santoso budi')).toEqual([]);
    expect(await found('rina santoso')).toEqual([]);
    // A word under three characters: the whole pattern is asked of the index, as before.
    expect(await found('na budiman')).toEqual([ids.rina]);
    expect(await found('di santoso')).toEqual([ids.budi]);
    // % and _ are the customer's characters, not wildcards.
    expect(await found('budi s_ntoso')).toEqual([]);
    expect(await found('bud% santoso')).toEqual([]);
  });

  it('applies every ticket filter and the visibility of the caller', async () => {
    expect(idsOf(await search('owner', { keyword: 'zebracadabra', csId: userIds.agent2 }))).toEqual([
      ids.siti,
    ]);
    expect(idsOf(await search('owner', { status: 'CLOSED', tags: 'retur', ...march }))).toEqual([ids.rina]);
    expect(idsOf(await search('owner', { remarksOrSubject: 'puas', priority: '1', ...march }))).toEqual([
      ids.rina,
    ]);
    // An agent (CS 2) finds only their own chats and the queue.
    expect(idsOf(await search('agent1', { keyword: 'zebracadabra' }))).toEqual([ids.budi]);
    expect(idsOf(await search('agent1', { keyword: 'budiman', ...march }))).toEqual([]);
  });

  it('pages with a cursor', async () => {
    const first = await search('owner', { ...march, pageSize: '2' });
    expect(idsOf(first)).toEqual([ids.formula, ids.rina]);
    const second = await search('owner', { ...march, pageSize: '2', cursor: first.body.nextCursor ?? '' });
    expect(idsOf(second)).toEqual([ids.siti, ids.budi]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('POST /api/csp/chatRoom/history takes the same filters in the body', async () => {
    const response = await server.request<SearchResponse>('POST', '/api/csp/chatRoom/history', {
      token: tokens.owner,
      body: { keyword: 'zebracadabra', mediaPlatform: ['WAP'], pageSize: 10 },
    });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([ids.budi]);
  });

  it('answers 403 without the history permission and 401 without a token', async () => {
    const token = noPermissionToken;
    expect((await server.request('GET', '/api/ticket/search?keyword=x', { token })).status).toBe(403);
    expect((await server.request('POST', '/api/csp/chatRoom/history', { token, body: {} })).status).toBe(403);
    expect((await server.request('GET', '/api/ticket/search')).status).toBe(401);
  });
});

describe('GET /api/ticket/search/download', () => {
  const download = (query: Record<string, string>, token = tokens.owner) =>
    fetch(`${server.url}/api/ticket/search/download?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it('refuses more than 31 days, a reversed range, or a missing end', async () => {
    for (const query of [
      { createdFrom: '2020-03-01T00:00:00Z', createdTo: '2020-04-02T00:00:00Z' },
      { createdFrom: '2020-03-10T00:00:00Z', createdTo: '2020-03-01T00:00:00Z' },
      { createdFrom: '2020-03-01T00:00:00Z' },
    ] as Array<Record<string, string>>) {
      const response = await download(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'chat history download up to 31 days',
      });
    }
  });

  it('streams a CSV with a byte-order mark, a header row and neutralised formulas', async () => {
    const response = await download(march);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="chat-history_2020-03-01_2020-03-31.csv"',
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'ID Tiket,Dibuat,Pelanggan,Telepon,Kanal,Status,Prioritas,Tag,Kategori,CS yang ditugaskan,Ditutup oleh,Ditutup pada,Catatan,Subjek,Jumlah pesan,Pesan pertama pelanggan',
    );
    expect(lines.at(-1)).toBe('');
    // Newest first; the subject's line break is inside quotes, so the file has more lines than rows.
    expect(text).toContain(
      `${ids.formula},2020-03-20 10:00:00,'=cmd|/c calc!A1,'+6289900011122,Live Chat,Belum ditugaskan,Normal,,,,,,"'@SUM(1,2)"`,
    );
    expect(text).toContain('"Kata ""kutip"", koma\nbaris",1,\'-2+3 hitung');
    expect(text).toContain(
      `${ids.rina},2020-03-12 10:00:00,Rina Budiman,,Live Chat,Ditutup,Tinggi,"vip, retur",,Bunga Agen,Bunga Agen,2020-03-12 12:00:00,"Selesai, pelanggan puas",,2,Terima kasih banyak`,
    );
    expect(text).toContain(
      `${ids.budi},2020-03-10 10:00:00,Budi Santoso,'+6281234567890,WhatsApp,Ditugaskan`,
    );
    expect(text).toContain(',3,"Selamat pagi, paket zebracadabra saya belum datang"');
    expect(text).not.toContain('Budi Foreign');
  });

  it('writes the header in English on request, with the same filters as search', async () => {
    const response = await download({ ...march, lang: 'en', keyword: 'zebracadabra' }, tokens.agent1);
    const text = (await response.text()).replace(/^\uFEFF/, '');
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header.startsWith('Ticket ID,Created,Customer,Phone,Channel,Status,Priority')).toBe(true);
    expect(rows.map((row) => Number(row.split(',')[0]))).toEqual([ids.budi]);
  });

  it('answers 403 without the history permission', async () => {
    expect((await download(march, noPermissionToken)).status).toBe(403);
  });
});

describe('wordsEveryMatchHolds', () => {
  it('gives the lowercase words of a keyword of plain ASCII words, and nothing for operators or other letters', () => {
    expect(wordsEveryMatchHolds(' Refund  INV2026 ')).toEqual(['refund', 'inv2026']);
    expect(wordsEveryMatchHolds('refund or garansi')).toEqual([]);
    expect(wordsEveryMatchHolds('refund -garansi')).toEqual([]);
    expect(wordsEveryMatchHolds('"belum datang"')).toEqual([]);
    expect(wordsEveryMatchHolds('INV/2026/01234')).toEqual([]);
    expect(wordsEveryMatchHolds('kafé')).toEqual([]);
  });
});
