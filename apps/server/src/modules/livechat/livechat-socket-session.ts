import {
  type VisitorClientFrame,
  type VisitorErrorCode,
  visitorChatLimits,
  visitorClientFrame,
  visitorErrors,
} from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../platform/http/http-errors';
import type { DeliveryTarget, InboundInput, InboundResult } from '../inbox/conversation.service';
import type { VisitorConnection, VisitorHub } from './livechat-socket';
import { type VisitorMedia, visitorOwnerRef } from './visitor.service';

/** What the socket needs from the inbox: the conversation seam every channel uses. */
export interface VisitorConversations {
  receiveInbound(input: InboundInput): Promise<InboundResult>;
  updateDeliveryStatus(target: DeliveryTarget, status: 'DELIVERED' | 'READ'): Promise<number>;
  customerTyping(input: { clientId: string; contactIdentityId: string; typing: boolean }): Promise<void>;
}

interface Ack {
  serverId: number;
  ts: string;
}

/**
 * Messages per visitor in a sliding window, in this process; with several processes a
 * visitor spread over them gets the allowance of each, which still stops a flood. It also
 * remembers the visitor's recent acks, so a re-sent message is answered without counting.
 */
export class VisitorRateLimiter {
  private readonly visitors = new Map<string, { times: number[]; acks: Map<string, Ack> }>();

  constructor(
    private readonly max: number = visitorChatLimits.messagesPerWindow,
    private readonly windowMs: number = visitorChatLimits.windowMs,
  ) {}

  private entry(visitorId: string) {
    let entry = this.visitors.get(visitorId);
    if (!entry) {
      if (this.visitors.size > 10_000) this.prune();
      entry = { times: [], acks: new Map() };
      this.visitors.set(visitorId, entry);
    }
    return entry;
  }

  knownAck(visitorId: string, id: string): Ack | undefined {
    return this.visitors.get(visitorId)?.acks.get(id);
  }

  remember(visitorId: string, id: string, ack: Ack): void {
    const { acks } = this.entry(visitorId);
    acks.set(id, ack);
    if (acks.size > 50) acks.delete(acks.keys().next().value as string);
  }

  /** Counts one message; false when the visitor is over the allowance. */
  take(visitorId: string, now = Date.now()): boolean {
    const entry = this.entry(visitorId);
    entry.times = entry.times.filter((time) => now - time < this.windowMs);
    if (entry.times.length >= this.max) return false;
    entry.times.push(now);
    return true;
  }

  private prune(now = Date.now()): void {
    for (const [visitorId, entry] of this.visitors) {
      if (entry.times.every((time) => now - time >= this.windowMs)) this.visitors.delete(visitorId);
    }
  }
}

/**
 * One widget socket's incoming frames, handled one at a time in the order they came, so a
 * visitor's messages are stored in the order they were written.
 */
export class VisitorSocketSession {
  private chain: Promise<void> = Promise.resolve();
  private deliveredSent = 0;
  private readSent = 0;

  constructor(
    private readonly connection: VisitorConnection,
    private readonly hub: VisitorHub,
    private readonly conversations: VisitorConversations,
    private readonly media: VisitorMedia,
    private readonly limiter: VisitorRateLimiter,
    private readonly logger: FastifyBaseLogger,
  ) {}

  receive(raw: string): void {
    this.chain = this.chain
      .then(() => this.handle(raw))
      .catch((error) => {
        this.logger.error({ err: error }, 'visitor frame failed');
        this.error('unavailable', visitorErrors.unavailable);
      });
  }

  private async handle(raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return this.error('invalid', visitorErrors.invalidFrame);
    }
    const parsed = visitorClientFrame.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      return this.error('invalid', visitorErrors.invalidFrame, typeof id === 'string' ? id : undefined);
    }
    const frame = parsed.data;
    const { clientId } = this.connection.visitor.claims;
    const room = this.connection.room;
    switch (frame.type) {
      case 'ping':
        return this.hub.send(this.connection, { type: 'pong' });
      case 'message':
        return this.message(frame);
      case 'typing':
        if (room)
          await this.conversations.customerTyping({
            clientId,
            contactIdentityId: room.contactIdentityId,
            typing: frame.typing,
          });
        return;
      case 'delivered':
      case 'read': {
        const already = frame.type === 'read' ? this.readSent : this.deliveredSent;
        if (!room || frame.upToServerId <= already) return;
        if (frame.type === 'read') this.readSent = frame.upToServerId;
        else this.deliveredSent = frame.upToServerId;
        await this.conversations.updateDeliveryStatus(
          { clientId, roomId: room.roomId, upToMessageId: frame.upToServerId },
          frame.type === 'read' ? 'READ' : 'DELIVERED',
        );
        return;
      }
    }
  }

  /** The pre-chat form's answers, one `Label: answer` line each, for the contact's notes. */
  private prechatNotes(): string | null {
    const { claims, widget } = this.connection.visitor;
    const lines = widget.prechatFields
      .map((field) => [field.label, claims.fields[field.customizedData]] as const)
      .filter(([, answer]) => Boolean(answer))
      .map(([label, answer]) => `${label}: ${answer}`);
    return lines.length > 0 ? lines.join('\n') : null;
  }

  /**
   * A visitor's message: refused when empty, too long, over the rate limit or with a file
   * that is not theirs; otherwise stored once per id and acknowledged with its server id.
   */
  private async message(frame: Extract<VisitorClientFrame, { type: 'message' }>): Promise<void> {
    const { clientId, channelAccountId, visitorId, name, email, phone } = this.connection.visitor.claims;
    const known = this.limiter.knownAck(visitorId, frame.id);
    if (known) return this.hub.send(this.connection, { type: 'ack', id: frame.id, ...known });
    const text = frame.body.trim();
    if (!text && frame.attachmentIds.length === 0)
      return this.error('empty', visitorErrors.emptyMessage, frame.id);
    if (text.length > visitorChatLimits.bodyMax)
      return this.error('too_long', visitorErrors.messageTooLong, frame.id);
    if (!this.limiter.take(visitorId)) return this.error('rate_limited', visitorErrors.rateLimited, frame.id);

    let attachments: Awaited<ReturnType<VisitorMedia['resolve']>> = [];
    if (frame.attachmentIds.length > 0) {
      try {
        attachments = await this.media.resolve(clientId, visitorOwnerRef(visitorId), frame.attachmentIds);
      } catch (error) {
        if (error instanceof HttpError) return this.error('attachment', error.message, frame.id);
        throw error;
      }
    }
    const result = await this.conversations.receiveInbound({
      clientId,
      channelAccountId,
      customer: { externalId: visitorId, name, email, phone, notes: this.prechatNotes() },
      clientMessageId: frame.id,
      text,
      attachments,
    });
    const ack = { serverId: result.message.id, ts: result.message.createdAt };
    this.limiter.remember(visitorId, frame.id, ack);
    this.hub.ownMessage(this.connection, ack.serverId);
    this.hub.send(this.connection, { type: 'ack', id: frame.id, ...ack });
    if (!this.connection.room) {
      // The first message made the room: from now on its events reach the visitor's sockets.
      await this.hub.joinVisitor(
        { contactIdentityId: result.contactIdentityId, roomId: result.roomId },
        visitorId,
      );
    }
  }

  private error(code: VisitorErrorCode, message: string, id?: string): void {
    this.hub.send(this.connection, { type: 'error', code, message, ...(id ? { id } : {}) });
  }
}
