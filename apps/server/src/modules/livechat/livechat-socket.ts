import { type VisitorServerFrame, visitorChatLimits } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { DeliveredEvent, EventBus } from '../../platform/events/event-bus';
import { rooms } from '../../platform/events/outbox';
import { sendFrame } from '../../platform/realtime/socket-writes';
import { messageFrameOfRow, type VisitorEvent, visitorEventOf } from './livechat-socket-frames';
import {
  findUserName,
  findVisitorRoom,
  listPublicMessages,
  type VisitorRoom,
  visitorReadUpTo,
} from './visitor.repository';
import type { Visitor, VisitorMedia } from './visitor.service';

const visitorRoomPrefix = rooms.visitor('');

/** One open widget socket. */
export interface VisitorConnection {
  socket: WebSocket;
  visitor: Visitor;
  /** Null until the visitor's first message made their contact, room and ticket. */
  room: VisitorRoom | null;
  /** Message ids already sent, so a replay and a live event never show one twice. */
  sentIds: Set<number>;
  /** Ids of the visitor's own messages, to tell an agent's read mark from other updates. */
  visitorIds: Set<number>;
  readSent: number;
  /** Live events that arrive while the resume is still being read. */
  pending: VisitorEvent[] | null;
}

/**
 * The visitors' half of the realtime fan-out. It hears every committed event on the bus and
 * hands a visitor's sockets what concerns their conversation: public messages of their room
 * (the inbox writes them to `visitor:<contactIdentityId>`), agents typing, delivery states,
 * and, from their ticket's events, an agent joining or reading. Internal notes never pass.
 */
export class VisitorHub {
  private readonly byIdentity = new Map<string, Set<VisitorConnection>>();
  private readonly byRoom = new Map<string, Set<VisitorConnection>>();
  private readonly connections = new Set<VisitorConnection>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribeMissed: () => void;

  constructor(
    bus: EventBus,
    private readonly db: Database,
    private readonly media: VisitorMedia,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.dispatch(event));
    // Events this process could not hear: each widget reconnects and resumes from the last
    // message it has, as after any dropped connection.
    this.unsubscribeMissed = bus.onMissed(() => {
      for (const connection of this.connections) connection.socket.close(1012, 'reconnect to resume');
    });
  }

  /**
   * Takes a new socket: sends what the visitor missed (everything after `since`, or the
   * recent history for a page opened afresh), then live events, then `hello`.
   */
  async accept(socket: WebSocket, visitor: Visitor, since: number | null): Promise<VisitorConnection> {
    const connection: VisitorConnection = {
      socket,
      visitor,
      room: null,
      sentIds: new Set(),
      visitorIds: new Set(),
      readSent: 0,
      pending: [],
    };
    this.connections.add(connection);
    socket.on('close', () => this.forget(connection));
    const { clientId, channelAccountId, visitorId } = visitor.claims;
    const room = await withTenant(this.db, clientId, (tx) =>
      findVisitorRoom(tx, clientId, channelAccountId, visitorId),
    );
    if (room) await this.join(connection, room, since);
    const pending = connection.pending ?? [];
    connection.pending = null;
    for (const event of pending) await this.deliver(connection, event);
    const lastServerId = Math.max(0, since ?? 0, ...connection.sentIds);
    this.send(connection, { type: 'hello', visitorId, lastServerId });
    return connection;
  }

  /**
   * Puts the connection in its room and sends the room's messages it has not seen. Called
   * on connect, and after the first message made the room (its events may have passed).
   */
  async join(connection: VisitorConnection, room: VisitorRoom, since: number | null): Promise<void> {
    if (connection.room) return;
    connection.room = room;
    add(this.byIdentity, room.contactIdentityId, connection);
    add(this.byRoom, room.roomId, connection);
    const { clientId } = connection.visitor.claims;
    let after = since;
    for (let page = 0; page < visitorChatLimits.resumePages; page += 1) {
      const rows = await withTenant(this.db, clientId, (tx) =>
        listPublicMessages(tx, clientId, room.roomId, { after, limit: visitorChatLimits.resumePage }),
      );
      for (const row of rows) {
        this.sendMessage(
          connection,
          messageFrameOfRow(row, (file) => this.media.linkOf(clientId, file)),
        );
      }
      // Without `since` the newest page is the history; with it, keep reading until caught up.
      if (after === null || rows.length < visitorChatLimits.resumePage) break;
      after = rows[rows.length - 1].id;
    }
    const readUpTo = await withTenant(this.db, clientId, (tx) => visitorReadUpTo(tx, clientId, room.roomId));
    if (readUpTo > 0) {
      connection.readSent = readUpTo;
      this.send(connection, { type: 'read', upToServerId: readUpTo });
    }
  }

  /** Puts every socket of the visitor still without a room in the room their first message made. */
  async joinVisitor(room: VisitorRoom, visitorId: string): Promise<void> {
    for (const connection of [...this.connections]) {
      if (!connection.room && connection.visitor.claims.visitorId === visitorId)
        await this.join(connection, room, null);
    }
  }

  /** Records the visitor's own message (acked on this socket) so later read marks apply to it. */
  ownMessage(connection: VisitorConnection, serverId: number): void {
    connection.visitorIds.add(serverId);
    connection.sentIds.add(serverId);
  }

  private dispatch(event: DeliveredEvent): void {
    const visitorEvent = visitorEventOf(event);
    if (!visitorEvent) return;
    const targets = new Set<VisitorConnection>();
    for (const room of event.rooms) {
      if (room.startsWith(visitorRoomPrefix))
        for (const connection of this.byIdentity.get(room.slice(visitorRoomPrefix.length)) ?? [])
          targets.add(connection);
    }
    if (visitorEvent.kind === 'ticket')
      for (const connection of this.byRoom.get(visitorEvent.roomId) ?? []) targets.add(connection);
    for (const connection of targets) {
      if (connection.visitor.claims.clientId !== event.clientId) continue;
      if (connection.pending) connection.pending.push(visitorEvent);
      else
        void this.deliver(connection, visitorEvent).catch((error) =>
          this.logger.error({ err: error }, 'visitor event failed'),
        );
    }
  }

  private async deliver(connection: VisitorConnection, event: VisitorEvent): Promise<void> {
    switch (event.kind) {
      case 'message':
        this.sendMessage(connection, event.frame);
        if (event.frame.from === 'agent') await this.maybeRead(connection, event.ticket.unreadCount);
        return;
      case 'updated':
        if (connection.visitorIds.has(event.serverId)) {
          if (event.status === 'READ') this.send(connection, { type: 'read', upToServerId: event.serverId });
        } else if (connection.sentIds.has(event.serverId)) {
          this.send(connection, { type: 'status', serverId: event.serverId, status: event.status });
        }
        return;
      case 'deleted':
        if (connection.sentIds.delete(event.serverId))
          this.send(connection, { type: 'deleted', serverId: event.serverId });
        return;
      case 'typing':
        this.send(connection, { type: 'typing', typing: event.typing, name: event.name });
        return;
      case 'ticket':
        await this.announceAssignee(connection, event.ticket.assigneeId, event.previousAssigneeId);
        await this.maybeRead(connection, event.ticket.unreadCount);
        return;
    }
  }

  /** "<agent> joined the chat" once per new assignee of the room. */
  private async announceAssignee(
    connection: VisitorConnection,
    assigneeId: string | null,
    previousAssigneeId: string | null,
  ): Promise<void> {
    if (!assigneeId || assigneeId === previousAssigneeId) return;
    const { clientId } = connection.visitor.claims;
    const name = await withTenant(this.db, clientId, (tx) => findUserName(tx, clientId, assigneeId));
    if (name) this.send(connection, { type: 'agent_joined', name });
  }

  /** When the ticket has no unread message left, the agents have read everything the visitor wrote. */
  private async maybeRead(connection: VisitorConnection, unreadCount: number): Promise<void> {
    if (unreadCount !== 0) return;
    const newest = Math.max(0, ...connection.visitorIds);
    if (newest > connection.readSent) {
      connection.readSent = newest;
      this.send(connection, { type: 'read', upToServerId: newest });
    }
  }

  private sendMessage(
    connection: VisitorConnection,
    frame: Extract<VisitorServerFrame, { type: 'message' }>,
  ): void {
    if (connection.sentIds.has(frame.serverId)) return;
    connection.sentIds.add(frame.serverId);
    if (frame.from === 'visitor') connection.visitorIds.add(frame.serverId);
    this.send(connection, frame);
  }

  send(connection: VisitorConnection, frame: VisitorServerFrame): void {
    sendFrame(connection.socket, JSON.stringify(frame));
  }

  private forget(connection: VisitorConnection): void {
    this.connections.delete(connection);
    if (!connection.room) return;
    remove(this.byIdentity, connection.room.contactIdentityId, connection);
    remove(this.byRoom, connection.room.roomId, connection);
  }

  /** Visitor sockets open in this process. */
  get size(): number {
    return this.connections.size;
  }

  /** Stops hearing events and closes every visitor socket (the server is shutting down). */
  close(): void {
    this.unsubscribe();
    this.unsubscribeMissed();
    for (const connection of this.connections) connection.socket.close(1001, 'server shutting down');
    this.connections.clear();
  }
}

function add<T>(index: Map<string, Set<T>>, key: string, value: T): void {
  const set = index.get(key) ?? new Set<T>();
  set.add(value);
  index.set(key, set);
}

function remove<T>(index: Map<string, Set<T>>, key: string, value: T): void {
  const set = index.get(key);
  set?.delete(value);
  if (set?.size === 0) index.delete(key);
}
