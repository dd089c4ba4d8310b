// The harness seam for customer messages entering the product: each channel is an
// InboundSource that opens conversations and sends one marked message at a time. The
// realtime bench drives a source from a socket worker process (never the server's, never
// the bench's own) and measures the time from `send` to the assigned agent's socket.
//
// A webhook channel plugs in here as a third source, once its channel simulator exists:
//   prepare(ctx)  makes (or finds) one channel account and one customer id per conversation,
//                 and sends each customer's first message so its ticket exists to be assigned;
//   send(marker)  POSTs the provider's payload carrying marker.text to
//                 /api/webhooks/<code>/<accountId>, signed as the provider signs it (the
//                 simulator's signer), and resolves when the server answers 200.
// The time to that 200 is the webhook acknowledgement; the agent socket worker times the
// rest unchanged. It then gives two figures: webhook acknowledgement p99, and webhook →
// agent socket p99, both at 1,000 messages/s.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

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

/** The source of a name, for a worker told which one to drive. */
export function inboundSourceOf(name: string): InboundSource {
  if (name === 'livechat') return new LivechatVisitorSource();
  if (name === 'bare') return new BareVisitorSource();
  throw new Error(`unknown inbound source ${name}`);
}
