import type { VisitorAttachment, VisitorServerFrame } from '@app/contracts';
import { attachmentRefusal } from '../../../packages/contracts/src/channels';
import { ApiError, type WidgetApi } from './api';
import type { ChatMessage, ConversationView } from './conversation-view';
import { format, type Texts } from './locales';
import { VisitorSocket } from './visitor-socket';
import type { PendingMessage, StoredVisitor, VisitorStore } from './visitor-store';

export interface SessionEvents {
  /** The server refused the visitor's token or the site: the widget starts over. */
  ended(code: number): void;
  /** Agent messages arrived that the visitor has not seen. */
  unread(count: number): void;
  connected(connected: boolean): void;
}

/** A v4 UUID; `randomUUID` exists only on https pages, so plain-http sites get the long way. */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One visitor's chat: the socket, the messages on screen, what is pending and what the
 * visitor has seen. Every message the visitor writes gets its id here, once, and keeps it
 * through retries and reconnects, so the server can store it exactly once.
 */
export class ChatSession {
  private readonly socket: VisitorSocket;
  private readonly messages = new Map<string, ChatMessage>();
  private readonly keyOfServerId = new Map<number, string>();
  /** Files this page uploaded, so a pending message can show them before the echo. */
  private readonly uploaded = new Map<string, VisitorAttachment>();
  private lastServerId = 0;
  private readSent = 0;
  private deliveredSent = 0;
  private visible = false;

  constructor(
    private readonly api: WidgetApi,
    private readonly store: VisitorStore,
    private visitor: StoredVisitor,
    private readonly view: ConversationView,
    private readonly texts: Texts,
    private readonly events: SessionEvents,
  ) {
    this.socket = new VisitorSocket(
      (since) => api.socketUrl(visitor.token, since),
      // A fresh page asks for the recent history; a reconnect only for what it missed.
      () => (this.lastServerId > 0 ? this.lastServerId : null),
      {
        onFrame: (frame) => this.onFrame(frame),
        onConnected: (connected) => {
          events.connected(connected);
          if (connected) this.flushPending();
        },
        onRefused: (code) => events.ended(code),
      },
    );
    for (const pending of visitor.pending) this.showPending(pending);
  }

  start(): void {
    this.socket.connect();
    for (const name of ['online', 'focus']) window.addEventListener(name, () => this.socket.wake());
  }

  stop(): void {
    this.socket.close();
  }

  /** The panel opened or closed: what is on screen while open counts as read. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.markRead();
  }

  send(body: string, attachmentIds: string[] = []): void {
    const pending: PendingMessage = { id: uuid(), body, attachmentIds, ts: Date.now() };
    this.visitor.pending.push(pending);
    this.store.save(this.visitor);
    this.showPending(pending);
    this.transmit(pending);
  }

  retry(key: string): void {
    const pending = this.visitor.pending.find((item) => item.id === key);
    if (!pending) return;
    this.update(key, { state: 'sending' });
    this.transmit(pending);
  }

  typing(typing: boolean): void {
    this.socket.send({ type: 'typing', typing });
  }

  /** Uploads a file within the live chat's attachment rules, then sends it as a message. */
  async attach(file: File): Promise<void> {
    const refusal = attachmentRefusal('LVC', { name: file.name, mime: file.type, size: file.size });
    if (refusal)
      return this.view.notify(refusal === 'size' ? this.texts.attachmentSize : this.texts.attachmentType);
    this.view.notify(format(this.texts.uploading, file.name));
    try {
      const attachment = await this.api.upload(this.visitor.token, file);
      this.view.notify('');
      this.uploaded.set(attachment.id, attachment);
      this.send('', [attachment.id]);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return this.events.ended(4401);
      this.view.notify(this.texts.uploadFailed);
    }
  }

  private transmit(pending: PendingMessage): void {
    this.socket.send({
      type: 'message',
      id: pending.id,
      body: pending.body,
      attachmentIds: pending.attachmentIds,
      ts: pending.ts,
    });
  }

  private flushPending(): void {
    for (const pending of this.visitor.pending) this.transmit(pending);
  }

  private showPending(pending: PendingMessage): void {
    this.put({
      key: pending.id,
      serverId: null,
      from: 'visitor',
      body: pending.body,
      attachments: pending.attachmentIds.flatMap((id) => this.uploaded.get(id) ?? []),
      agentName: null,
      ts: new Date(pending.ts).toISOString(),
      state: 'sending',
    });
  }

  private onFrame(frame: VisitorServerFrame): void {
    switch (frame.type) {
      case 'ack':
        this.acknowledge(frame.id, frame.serverId);
        break;
      case 'message': {
        const key = frame.id ?? `s${frame.serverId}`;
        if (frame.id) this.acknowledge(frame.id, frame.serverId);
        const known = this.messages.get(key);
        this.put({
          key,
          serverId: frame.serverId,
          from: frame.from,
          body: frame.body,
          attachments: frame.attachments,
          agentName: frame.agentName,
          ts: frame.ts,
          state: known?.state === 'read' ? 'read' : 'sent',
        });
        this.keyOfServerId.set(frame.serverId, key);
        this.lastServerId = Math.max(this.lastServerId, frame.serverId);
        if (frame.from === 'agent') {
          this.view.setTyping(null);
          this.markDelivered();
        }
        break;
      }
      case 'read':
        for (const message of this.messages.values()) {
          if (
            message.from === 'visitor' &&
            message.serverId !== null &&
            message.serverId <= frame.upToServerId
          )
            this.update(message.key, { state: 'read' });
        }
        break;
      case 'status': {
        const key = this.keyOfServerId.get(frame.serverId);
        if (key && frame.status === 'READ') this.update(key, { state: 'read' });
        break;
      }
      case 'typing':
        this.view.setTyping(frame.typing ? frame.name : null);
        break;
      case 'agent_joined':
        this.view.note(format(this.texts.agentJoined, frame.name));
        break;
      case 'error':
        this.onError(frame.code, frame.id);
        break;
      case 'hello':
        this.lastServerId = Math.max(this.lastServerId, frame.lastServerId);
        this.markDelivered();
        break;
    }
  }

  private onError(code: string, id: string | undefined): void {
    const text =
      code === 'rate_limited'
        ? this.texts.rateLimited
        : code === 'too_long'
          ? this.texts.tooLong
          : code === 'empty'
            ? this.texts.emptyMessage
            : code === 'attachment'
              ? this.texts.attachmentType
              : this.texts.sendFailed;
    this.view.notify(text);
    if (id) this.update(id, { state: 'failed' });
  }

  private acknowledge(id: string, serverId: number): void {
    const index = this.visitor.pending.findIndex((item) => item.id === id);
    if (index >= 0) {
      this.visitor.pending.splice(index, 1);
      this.store.save(this.visitor);
    }
    this.keyOfServerId.set(serverId, id);
    const known = this.messages.get(id);
    if (known && known.serverId === null) this.update(id, { serverId, state: 'sent' });
    if (known?.state === 'failed') this.view.notify('');
  }

  private put(message: ChatMessage): void {
    this.messages.set(message.key, message);
    this.view.show(message);
  }

  private update(key: string, change: Partial<ChatMessage>): void {
    const message = this.messages.get(key);
    if (message) this.put({ ...message, ...change });
  }

  private newestAgentMessage(): number {
    let newest = 0;
    for (const message of this.messages.values()) {
      if (message.from === 'agent' && message.serverId !== null) newest = Math.max(newest, message.serverId);
    }
    return newest;
  }

  private markDelivered(): void {
    const newest = this.newestAgentMessage();
    if (newest > this.deliveredSent && this.socket.send({ type: 'delivered', upToServerId: newest }))
      this.deliveredSent = newest;
    if (this.visible) this.markRead();
    else this.countUnread();
  }

  private markRead(): void {
    const newest = this.newestAgentMessage();
    if (newest > this.visitor.lastSeenServerId) {
      this.visitor.lastSeenServerId = newest;
      this.store.save(this.visitor);
    }
    this.events.unread(0);
    if (newest > this.readSent && this.socket.send({ type: 'read', upToServerId: newest }))
      this.readSent = newest;
  }

  private countUnread(): void {
    let count = 0;
    for (const message of this.messages.values()) {
      if (message.from === 'agent' && (message.serverId ?? 0) > this.visitor.lastSeenServerId) count += 1;
    }
    this.events.unread(count);
  }
}
