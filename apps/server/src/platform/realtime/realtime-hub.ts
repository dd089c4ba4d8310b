import { eventTopics, type SocketServerMessage, socketClientMessage } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { DeliveredEvent, EventBus } from '../events/event-bus';
import { rooms } from '../events/outbox';
import type { AuthContext } from '../http/authentication';
import { sendFrame } from './socket-writes';

/** Decides whether a signed-in user may join a room of a kind (e.g. one ticket). */
export type RoomAuthorizer = (auth: AuthContext, id: string) => Promise<boolean>;

/** Rooms a module puts every new socket of a user in, beside its client and user rooms. */
export type ConnectionRooms = (auth: AuthContext) => string[];

interface Connection {
  socket: WebSocket;
  auth: AuthContext;
  rooms: Set<string>;
  /** Highest cursor sent (what `hello` reports). */
  lastCursor: bigint;
  /**
   * Cursors sent lately. Cursors are given out when a transaction writes its event but
   * events arrive in commit order, so a lower cursor may come after a higher one: only a
   * cursor already sent (a replayed event heard live too) is a duplicate.
   */
  sent: Set<bigint>;
  /** Live events that arrive while the replay is still being read. */
  pending: DeliveredEvent[] | null;
}

/** How many missed events a reconnecting client may catch up on before it must resync. */
export const maxReplayEvents = 500;

/** How many sent cursors a socket remembers to drop a duplicate. */
const rememberedCursors = 256;

/**
 * A resuming socket is replayed this many cursors before its own too: an event given a lower
 * cursor may have committed after the client saw a higher one. The client drops what it has.
 */
export const lateCommitMargin = 100n;

/**
 * Delivers committed events to the sockets of this process. Each socket is in its client's
 * room and its user's room, and may join ticket rooms that an authorizer allows. An event
 * goes to the sockets of its rooms, found by room: looking through every socket of the
 * process for each event cost a thousand lookups an event with 200 agents connected, and
 * would cost 25,000 with the 5,000 one process holds.
 */
export class RealtimeHub {
  private readonly connections = new Set<Connection>();
  /** The sockets in each room. */
  private readonly members = new Map<string, Set<Connection>>();
  private readonly authorizers = new Map<string, RoomAuthorizer>();
  private readonly connectionRooms: ConnectionRooms[] = [];
  private readonly unsubscribe: () => void;
  private readonly unsubscribeMissed: () => void;
  private readonly frames = new WeakMap<DeliveredEvent, string>();

  constructor(
    private readonly bus: EventBus,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.dispatch(event));
    // Events this process could not hear: every socket reloads what it shows.
    this.unsubscribeMissed = bus.onMissed(() => void this.resyncAll());
    bus.catchUpAlways(eventTopics.sessionRevoked);
  }

  private async resyncAll(): Promise<void> {
    const newest = await this.bus.cursorRange().then(
      (range) => range.newest,
      () => 0n,
    );
    for (const connection of this.connections) {
      if (newest > connection.lastCursor) connection.lastCursor = newest;
      this.send(connection, { type: 'resync', cursor: connection.lastCursor.toString() });
    }
  }

  /** Lets sockets join rooms of the kind (`ticket`) when the authorizer says yes. */
  allowRooms(kind: string, authorizer: RoomAuthorizer): void {
    this.authorizers.set(kind, authorizer);
  }

  /** Adds rooms to every socket that connects from now on (e.g. the inbox's visibility rooms). */
  addConnectionRooms(rooms: ConnectionRooms): void {
    this.connectionRooms.push(rooms);
  }

  get size(): number {
    return this.connections.size;
  }

  /** How many of this process's sockets are in the room; undefined when none is (it is not kept). */
  socketsIn(room: string): number | undefined {
    return this.members.get(room)?.size;
  }

  private join(connection: Connection, room: string): void {
    connection.rooms.add(room);
    const members = this.members.get(room);
    if (members) members.add(connection);
    else this.members.set(room, new Set([connection]));
  }

  private leave(connection: Connection, room: string): void {
    connection.rooms.delete(room);
    const members = this.members.get(room);
    if (!members) return;
    members.delete(connection);
    if (members.size === 0) this.members.delete(room);
  }

  /** Takes a new authenticated socket; replays what it missed since its cursor. */
  async accept(socket: WebSocket, auth: AuthContext, cursor: bigint | null): Promise<void> {
    const connection: Connection = {
      socket,
      auth,
      rooms: new Set(),
      lastCursor: 0n,
      sent: new Set(),
      pending: [],
    };
    this.connections.add(connection);
    for (const room of [
      rooms.client(auth.clientId),
      rooms.user(auth.userId),
      ...this.connectionRooms.flatMap((roomsOf) => roomsOf(auth)),
    ])
      this.join(connection, room);
    socket.on('close', () => {
      this.connections.delete(connection);
      for (const room of [...connection.rooms]) this.leave(connection, room);
    });
    socket.on('message', (data) => void this.onMessage(connection, data.toString()));

    try {
      const range = await this.bus.cursorRange();
      if (cursor === null || cursor >= range.newest) {
        connection.lastCursor = cursor === null ? range.newest : cursor;
      } else if (range.oldest !== null && cursor < range.oldest - 1n) {
        connection.lastCursor = range.newest;
        this.send(connection, { type: 'resync', cursor: range.newest.toString() });
      } else {
        const missed = await this.bus.readAfter(
          auth.clientId,
          cursor > lateCommitMargin ? cursor - lateCommitMargin : 0n,
          [...connection.rooms],
          maxReplayEvents + 1,
        );
        if (missed.length > maxReplayEvents) {
          connection.lastCursor = range.newest;
          this.send(connection, { type: 'resync', cursor: range.newest.toString() });
        } else {
          connection.lastCursor = cursor;
          for (const event of missed) this.deliver(connection, event);
          if (range.newest > connection.lastCursor) connection.lastCursor = range.newest;
        }
      }
    } catch (error) {
      this.logger.error({ err: error }, 'socket replay failed');
      this.send(connection, { type: 'resync', cursor: '0' });
    }
    const pending = connection.pending ?? [];
    connection.pending = null;
    this.send(connection, { type: 'hello', cursor: connection.lastCursor.toString() });
    for (const event of pending) this.deliver(connection, event);
  }

  private dispatch(event: DeliveredEvent): void {
    if (event.topic === eventTopics.sessionRevoked) {
      for (const connection of this.connections) {
        if (
          connection.auth.clientId === event.clientId &&
          event.payload.sessionId === connection.auth.sessionId
        )
          connection.socket.close(4401, 'session revoked');
      }
    }
    // A socket in several of the event's rooms hears it once (`deliver` remembers its cursor).
    for (const room of event.rooms) {
      const members = this.members.get(room);
      if (!members) continue;
      for (const connection of members) {
        if (connection.auth.clientId !== event.clientId) continue;
        if (connection.pending) connection.pending.push(event);
        else this.deliver(connection, event);
      }
    }
  }

  private deliver(connection: Connection, event: DeliveredEvent): void {
    if (connection.sent.has(event.cursor)) return;
    if (!event.rooms.some((room) => connection.rooms.has(room))) return;
    connection.sent.add(event.cursor);
    if (connection.sent.size > rememberedCursors) {
      connection.sent.delete(connection.sent.values().next().value as bigint);
    }
    if (event.cursor > connection.lastCursor) connection.lastCursor = event.cursor;
    sendFrame(connection.socket, this.frameOf(event));
  }

  /** An event's frame is the same for every socket: it is serialised once. */
  private frameOf(event: DeliveredEvent): string {
    let frame = this.frames.get(event);
    if (frame === undefined) {
      const message: SocketServerMessage = {
        type: 'event',
        cursor: event.cursor.toString(),
        topic: event.topic,
        payload: event.payload,
        at: event.createdAt.toISOString(),
      };
      frame = JSON.stringify(message);
      this.frames.set(event, frame);
    }
    return frame;
  }

  private async onMessage(connection: Connection, raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return this.send(connection, { type: 'error', message: 'Message is not valid JSON' });
    }
    const parsed = socketClientMessage.safeParse(json);
    if (!parsed.success) return this.send(connection, { type: 'error', message: 'Unknown message' });
    const message = parsed.data;
    if (message.type === 'ping') return this.send(connection, { type: 'pong' });
    if (message.type === 'unsubscribe') {
      if (message.room.startsWith('ticket:')) this.leave(connection, message.room);
      return;
    }
    const [kind, id] = message.room.split(':');
    const authorizer = this.authorizers.get(kind);
    const allowed = authorizer ? await authorizer(connection.auth, id).catch(() => false) : false;
    if (!allowed)
      return this.send(connection, { type: 'error', message: `Room ${message.room} is not available` });
    this.join(connection, message.room);
    this.send(connection, { type: 'subscribed', room: message.room });
  }

  private send(connection: Connection, message: SocketServerMessage): void {
    sendFrame(connection.socket, JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.unsubscribeMissed();
    for (const connection of this.connections) connection.socket.close(1001, 'server shutting down');
    this.connections.clear();
    this.members.clear();
  }
}
