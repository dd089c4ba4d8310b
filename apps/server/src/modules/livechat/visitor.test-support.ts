import WebSocket from 'ws';
import type { Database } from '../../db/client';
import { channelAccounts, livechatWidgets } from '../../db/schema';
import type { TestServer } from '../../test/test-server';

let sequence = 0;

export type TestWidget = typeof livechatWidgets.$inferSelect;

/**
 * A live-chat widget with its LVC channel account, written straight into the tables (the
 * settings screens are another module's): not connected yet, on a domain of its own.
 */
export async function createWidget(
  db: Database,
  clientId: string,
  overrides: Partial<typeof livechatWidgets.$inferInsert> = {},
): Promise<TestWidget> {
  sequence += 1;
  const tag = `${Date.now().toString(36)}${sequence}`;
  const [account] = await db
    .insert(channelAccounts)
    .values({ clientId, channel: 'LVC', name: `Live chat ${tag}` })
    .returning();
  const [widget] = await db
    .insert(livechatWidgets)
    .values({
      clientId,
      channelAccountId: account.id,
      name: `Shop ${tag}`,
      domain: `https://shop-${tag}.example`,
      colour: '#0CA678',
      onlineTitle: 'Kami online',
      onlineMessage: 'Ada yang bisa kami bantu?',
      offlineTitle: 'Kami offline',
      offlineMessage: 'Tinggalkan pesan dan email Anda.',
      prechatFields: [{ label: 'Nomor pesanan', customizedData: 'orderNumber', required: false }],
      consentText: 'Saya setuju.',
      ...overrides,
    })
    .returning();
  return widget;
}

/** Registers a visitor through the pre-chat form and answers their token. */
export async function registerVisitor(
  server: TestServer,
  widget: TestWidget,
  body: Record<string, unknown> = {},
): Promise<{ token: string; visitorId: string }> {
  const response = await server.request<{ token: string; visitorId: string }>(
    'POST',
    `/api/livechat/widget/${widget.id}/visitors`,
    { body: { name: 'Vina Visitor', email: 'vina@example.com', fields: {}, consent: true, ...body } },
  );
  if (response.status !== 200) throw new Error(`register failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A frame the visitor socket sent. */
export type Frame = Record<string, unknown> & { type: string };

/** A visitor's socket that records frames and can wait for one that matches. */
export interface VisitorSocket {
  socket: WebSocket;
  frames: Frame[];
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  send(frame: Record<string, unknown>): void;
  closed: Promise<number>;
}

export async function openVisitorSocket(
  server: TestServer,
  query: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<VisitorSocket> {
  const url = `${server.url.replace(/^http/, 'ws')}/api/livechat/ws?${new URLSearchParams(query)}`;
  const socket = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  const waiters = new Set<{ match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }>();
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.delete(waiter);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: (frame) => socket.send(JSON.stringify(frame)),
    next(match, timeoutMs = 5000) {
      const seen = frames.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (frame: Frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching frame; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}
