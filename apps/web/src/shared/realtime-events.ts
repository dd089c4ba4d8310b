import type { RealtimeEvent } from './realtime-client';

type Listener = (event: RealtimeEvent) => void;
type RoomJoiner = (room: string) => () => void;

const listeners = new Map<string, Set<Listener>>();
const resyncListeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();
const firstConnectListeners = new Set<() => void>();
const roomJoinedListeners = new Map<string, Set<() => void>>();
let joiner: RoomJoiner | null = null;
/** One per joinRoom call; `leave` is the socket's own, once a socket is attached. */
interface Membership {
  room: string;
  leave: (() => void) | null;
}
const memberships = new Set<Membership>();

/**
 * The realtime events of the signed-in shell, for features to listen to without knowing
 * the socket: the shell publishes into it, features subscribe by topic.
 */
export const realtimeEvents = {
  /** Calls the listener for each event of the topic; returns the function that stops it. */
  on(topic: string, listener: Listener): () => void {
    const set = listeners.get(topic) ?? new Set();
    set.add(listener);
    listeners.set(topic, set);
    return () => set.delete(listener);
  },
  /** Called when the server could not replay what was missed: refetch what is shown. */
  onResync(listener: () => void): () => void {
    resyncListeners.add(listener);
    return () => resyncListeners.delete(listener);
  },
  /**
   * Called when the socket is open again after a drop. The server replays what the
   * user's rooms missed, but a screen showing one ticket should still catch up on it.
   */
  onReconnect(listener: () => void): () => void {
    reconnectListeners.add(listener);
    return () => reconnectListeners.delete(listener);
  },
  /**
   * Called when the page's first socket is ready. What was fetched before it may have
   * missed events committed in between (a fresh connection has nothing to resume from),
   * so lists shown at that moment are fetched again.
   */
  onFirstConnect(listener: () => void): () => void {
    firstConnectListeners.add(listener);
    return () => firstConnectListeners.delete(listener);
  },
  /**
   * Called each time the server confirms the room (after every reconnect too). From that
   * moment its events arrive; a screen catches up on what came before by fetching.
   */
  onRoomJoined(room: string, listener: () => void): () => void {
    const set = roomJoinedListeners.get(room) ?? new Set();
    set.add(listener);
    roomJoinedListeners.set(room, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && roomJoinedListeners.get(room) === set) roomJoinedListeners.delete(room);
    };
  },
  /** Joins a room such as `ticket:42` until the returned function is called. */
  joinRoom(room: string): () => void {
    const membership: Membership = { room, leave: joiner ? joiner(room) : null };
    memberships.add(membership);
    return () => {
      if (!memberships.delete(membership)) return;
      membership.leave?.();
    };
  },
  /** The shell: hands over each event. */
  publish(event: RealtimeEvent): void {
    for (const listener of listeners.get(event.topic) ?? []) listener(event);
  },
  publishResync(): void {
    for (const listener of resyncListeners) listener();
  },
  publishReconnect(): void {
    for (const listener of reconnectListeners) listener();
  },
  publishFirstConnect(): void {
    for (const listener of firstConnectListeners) listener();
  },
  publishRoomJoined(room: string): void {
    for (const listener of roomJoinedListeners.get(room) ?? []) listener();
  },
  /**
   * The shell: connects room joins to the socket (null when the socket goes away). Rooms
   * joined before a socket existed are joined on it now, and leave it when their holder does.
   */
  attachRoomJoiner(next: RoomJoiner | null): void {
    joiner = next;
    for (const membership of memberships) membership.leave = next ? next(membership.room) : null;
  },
};
