import type { RealtimeEvent } from './realtime-client';

type Listener = (event: RealtimeEvent) => void;
type RoomJoiner = (room: string) => () => void;

const listeners = new Map<string, Set<Listener>>();
const resyncListeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();
let joiner: RoomJoiner | null = null;
const pendingRooms = new Map<string, number>();

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
  /** Joins a room such as `ticket:42` until the returned function is called. */
  joinRoom(room: string): () => void {
    if (joiner) return joiner(room);
    pendingRooms.set(room, (pendingRooms.get(room) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (pendingRooms.get(room) ?? 1) - 1;
      if (count > 0) pendingRooms.set(room, count);
      else pendingRooms.delete(room);
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
  /** The shell: connects room joins to the socket (null when the socket goes away). */
  attachRoomJoiner(next: RoomJoiner | null): void {
    joiner = next;
    if (next) for (const [room, count] of pendingRooms) for (let i = 0; i < count; i += 1) next(room);
    pendingRooms.clear();
  },
};
