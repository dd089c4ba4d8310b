// The harness seam for customer messages entering the product: each channel is an
// InboundSource that opens conversations and sends one marked message at a time. The
// realtime bench drives a source from a socket worker process (never the server's, never
// the bench's own) and measures the time from `send` to the assigned agent's socket.
//
// Three sources: the live-chat widget's socket, the bare pipeline's, and Telegram's webhook
// (`TelegramWebhookSource`): the load process plays Telegram, POSTing each update to the
// webhook the server set, with its secret header, and `send` resolves on the 200. The time to
// that 200 is the webhook acknowledgement; the agent socket worker times the rest unchanged.
// Another webhook channel plugs in the same way, signing as its provider signs.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import WebSocket from 'ws';
import {
  telegramSecretHeader,
  telegramTextUpdate,
} from '../../apps/server/src/modules/channels/adapters/tlg/telegram-simulator-types';

/** What a source needs to open its conversations. */
export interface InboundContext {
  baseUrl: string;
  /** Index of the first conversation; conversations are numbered across sources of a run. */
  firstConversation: number;
  conversations: number;
  /** Conversation c belongs to agent `c % agents` (agent indexes start at 0 for agent1). */
  agents: number;
  /** Unique per run: it is in every customer's name, so the run's tickets can be found. */
  runTag: string;
  /** The live-chat widget (product only). */
  widgetId?: string;
  /** The webhook a Telegram bot of the big client was given (setWebhook): where to POST, and its secret. */
  webhook?: { url: string; secretToken: string };
}

/** A conversation a source opened, under the customer name its ticket shows. */
export interface PreparedConversation {
  conversation: number;
  customerName: string;
}

/** One message to send: its conversation, and the text that carries its unique marker. */
export interface InboundMarker {
  conversation: number;
  text: string;
}

/** A channel through which customer messages reach the product (or the bare pipeline). */
export interface InboundSource {
  readonly name: string;
  /** Opens the conversations; each has a ticket afterwards (product) or a route to its agent (bare). */
  prepare(ctx: InboundContext): Promise<PreparedConversation[]>;
  /** Sends one message; resolves when the server acknowledged it, rejects when it refused it. */
  send(marker: InboundMarker): Promise<void>;
  close(): Promise<void>;
}

/** The text of a marked message; agents' workers find the conversation and sequence in it. */
export function markerText(runTag: string, conversation: number, sequence: number): string {
  return `rt:${runTag}:${conversation}:${sequence} Halo kak, apakah pesanan saya sudah dikirim?`;
}

/** The conversation a marked text belongs to, or null for any other text. */
export function conversationOfMarker(text: string): number | null {
  const match = /^rt:[^:]+:(\d+):\d+ /.exec(text);
  return match ? Number(match[1]) : null;
}

/** The marker part of a text (its first word), the key both workers record under. */
export const markerKey = (text: string) => text.slice(0, text.indexOf(' '));

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * One visitor socket speaking the widget's protocol: frames `{type:'message', id, body}`,
 * answered by `{type:'ack', id}` or `{type:'error', id, code}`.
 */
class VisitorSocket {
  private readonly waiting = new Map<string, Waiter>();
  readonly ready: Promise<void>;

  constructor(private readonly socket: WebSocket) {
    this.ready = new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.once('close', (code, reason) => reject(new Error(`visitor socket closed: ${code} ${reason}`)));
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as { type: string; id?: string; code?: string };
        if (frame.type === 'hello') resolve();
        else if (frame.type === 'ack' && frame.id) this.settle(frame.id)?.resolve();
        else if (frame.type === 'error' && frame.id)
          this.settle(frame.id)?.reject(new Error(frame.code ?? 'error'));
      });
    });
    socket.on('close', () => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error('socket closed'));
      this.waiting.clear();
    });
  }

  private settle(id: string): Waiter | undefined {
    const waiter = this.waiting.get(id);
    this.waiting.delete(id);
    return waiter;
  }

  send(text: string): Promise<void> {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ type: 'message', id, body: text, attachmentIds: [] }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

const wsUrl = (baseUrl: string, path: string) => `${baseUrl.replace(/^http/, 'ws')}${path}`;

/** Runs `work` over the items, `parallel` at a time. */
export async function inParallel<T, R>(
  items: T[],
  parallel: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]);
      }
    }),
  );
  return results;
}

/** Sources that hold one socket per conversation and send over it. */
abstract class SocketSource implements InboundSource {
  abstract readonly name: string;
  protected readonly sockets = new Map<number, VisitorSocket>();

  abstract prepare(ctx: InboundContext): Promise<PreparedConversation[]>;

  protected async open(url: string): Promise<VisitorSocket> {
    const socket = new VisitorSocket(new WebSocket(url));
    await socket.ready;
    return socket;
  }

  send(marker: InboundMarker): Promise<void> {
    const socket = this.sockets.get(marker.conversation);
    if (!socket) return Promise.reject(new Error(`no conversation ${marker.conversation}`));
    return socket.send(marker.text);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets.values()) socket.close();
    this.sockets.clear();
  }
}

/** How every visitor's name of a run begins (the run's tag follows "Pengunjung"). */
export const visitorNamePrefix = (runTag: string) => `Pengunjung ${runTag}`;

/**
 * Live-chat visitors, as the widget is: the pre-chat form (POST …/visitors) gives a token,
 * the socket /api/livechat/ws carries messages, and the first message opens the ticket.
 * Each visitor registers from its own address (X-Forwarded-For; the server trusts its
 * proxy), as visitors of a shop do: the registration limit is per address.
 */
export class LivechatVisitorSource extends SocketSource {
  readonly name = 'livechat';

  async prepare(ctx: InboundContext): Promise<PreparedConversation[]> {
    if (!ctx.widgetId) throw new Error('the live-chat source needs the widget id');
    const indexes = Array.from({ length: ctx.conversations }, (_, i) => ctx.firstConversation + i);
    return inParallel(indexes, 16, async (conversation) => {
      const customerName = `${visitorNamePrefix(ctx.runTag)} ${conversation}`;
      const response = await fetch(`${ctx.baseUrl}/api/livechat/widget/${ctx.widgetId}/visitors`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `10.${(conversation >> 16) & 255}.${(conversation >> 8) & 255}.${conversation & 255}`,
        },
        body: JSON.stringify({
          name: customerName,
          email: `v${conversation}.${ctx.runTag}@bench.test`,
          consent: true,
        }),
      });
      if (!response.ok) throw new Error(`visitor registration: ${response.status} ${await response.text()}`);
      const { token } = (await response.json()) as { token: string };
      const socket = await this.open(
        wsUrl(ctx.baseUrl, `/api/livechat/ws?widgetId=${ctx.widgetId}&token=${encodeURIComponent(token)}`),
      );
      this.sockets.set(conversation, socket);
      await socket.send(`Halo, saya ${customerName}, mau tanya stok.`);
      return { conversation, customerName };
    });
  }
}

/**
 * The bare pipeline's visitors (bench/lib/bare-realtime-server.ts): the same frames on the
 * same path, with the agent named in the socket's address instead of a ticket assignment.
 */
export class BareVisitorSource extends SocketSource {
  readonly name = 'bare';

  async prepare(ctx: InboundContext): Promise<PreparedConversation[]> {
    const indexes = Array.from({ length: ctx.conversations }, (_, i) => ctx.firstConversation + i);
    return inParallel(indexes, 16, async (conversation) => {
      const agent = conversation % ctx.agents;
      this.sockets.set(
        conversation,
        await this.open(wsUrl(ctx.baseUrl, `/api/livechat/ws?conversation=${conversation}&agent=${agent}`)),
      );
      return { conversation, customerName: `bare ${conversation}` };
    });
  }
}

/**
 * Telegram customers writing to the big client's bot: the load process plays Telegram and
 * POSTs each Update to the bot's webhook with its secret header, over at most 40 kept-alive
 * connections as Telegram's own delivery does. A chat's first message opens its ticket. Chat ids are new
 * for each run (from its tag), so every run opens tickets of its own.
 */
export class TelegramWebhookSource implements InboundSource {
  readonly name = 'telegram';
  private webhook: { url: string; secretToken: string } | undefined;
  private readonly chats = new Map<number, { chatId: number; firstName: string; messages: number }>();
  private updates = 0;
  /**
   * Telegram opens at most `max_connections` (40 unless setWebhook says otherwise) to one
   * webhook and keeps them open; updates wait for a free one. So does this source.
   */
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 40 });

  async prepare(ctx: InboundContext): Promise<PreparedConversation[]> {
    if (!ctx.webhook) throw new Error('the telegram source needs the bot webhook');
    this.webhook = ctx.webhook;
    const runBase = Number.parseInt(ctx.runTag.slice(1, 7), 16) % 1_000_000;
    this.updates = runBase * 1_000;
    const indexes = Array.from({ length: ctx.conversations }, (_, i) => ctx.firstConversation + i);
    return inParallel(indexes, 16, async (conversation) => {
      const customerName = `${visitorNamePrefix(ctx.runTag)} ${conversation}`;
      this.chats.set(conversation, {
        chatId: 7_000_000_000 + runBase * 10_000 + conversation,
        firstName: customerName,
        messages: 0,
      });
      await this.send({ conversation, text: `Halo, saya ${customerName}, mau tanya stok.` });
      return { conversation, customerName };
    });
  }

  async send(marker: InboundMarker): Promise<void> {
    const chat = this.chats.get(marker.conversation);
    if (!chat || !this.webhook) throw new Error(`no conversation ${marker.conversation}`);
    chat.messages += 1;
    this.updates += 1;
    const update = telegramTextUpdate({
      updateId: this.updates,
      messageId: chat.messages,
      chatId: chat.chatId,
      firstName: chat.firstName,
      text: marker.text,
    });
    const body = JSON.stringify(update);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        this.webhook?.url ?? '',
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            [telegramSecretHeader]: this.webhook?.secretToken,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    if (status !== 200) throw new Error(`webhook ${status}`);
  }

  async close(): Promise<void> {
    this.chats.clear();
    this.agent.destroy();
  }
}

/** The source of a name, for a worker told which one to drive. */
export function inboundSourceOf(name: string): InboundSource {
  if (name === 'livechat') return new LivechatVisitorSource();
  if (name === 'bare') return new BareVisitorSource();
  if (name === 'telegram') return new TelegramWebhookSource();
  throw new Error(`unknown inbound source ${name}`);
}
