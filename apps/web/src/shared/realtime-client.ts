import { type SocketServerMessage, socketReconnect, socketServerMessage } from '@app/contracts';

export type RealtimeEvent = Extract<SocketServerMessage, { type: 'event' }>;
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'failed';

/** Close code the server uses when the token in the URL is missing, bad or expired. */
export const unauthorizedCloseCode = 4401;

/**
 * Proxies and load balancers drop WebSockets that stay silent for about a minute; a ping
 * well inside that keeps an idle inbox connected.
 */
const keepAliveIntervalMs = 25_000;
/** Event cursors remembered to drop one a resume replays again. */
const rememberedCursors = 1000;

/**
 * The reconnect delays of one outage (core-inbox §4, §9): a minimum drawn at random
 * between 1 and 5 s, growing by a factor of 1.3 per attempt, capped at 10 s. Attempts
 * are counted from 1; past the last allowed attempt the answer is null (give up).
 */
export function createReconnectSchedule(random: () => number = Math.random) {
  const spread = socketReconnect.minDelayToMs - socketReconnect.minDelayFromMs;
  const minimumMs = Math.round(socketReconnect.minDelayFromMs + random() * spread);
  return {
    minimumMs,
    delayFor(attempt: number): number | null {
      if (attempt < 1 || attempt > socketReconnect.attempts) return null;
      return Math.min(
        Math.round(minimumMs * socketReconnect.factor ** (attempt - 1)),
        socketReconnect.maxDelayMs,
      );
    },
  };
}

/** The part of the browser's WebSocket the client uses; tests pass a fake with this shape. */
export interface RealtimeSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface RealtimeClientOptions {
  /** The socket address for a token and the last cursor seen (null before the first). */
  url: (token: string, cursor: string | null) => string;
  getToken: () => string | null;
  /** Called with the token that was refused; true when a new one is stored. */
  refreshToken: (refusedToken: string) => Promise<boolean>;
  /**
   * True when the token has expired by its own claims. A refused upgrade reaches the
   * browser only as an anonymous failure (code 1006), so this is how such a failure is
   * recognised as an authentication problem rather than a network one.
   */
  isTokenExpired?: (token: string) => boolean;
  onEvent?: (event: RealtimeEvent) => void;
  /** The server could not replay what was missed: cached data must be fetched again. */
  onResync?: () => void;
  /** The server's hello: `resumed` is false on the first connection, with no cursor to resume from. */
  onHello?: (hello: { resumed: boolean }) => void;
  /** The server confirmed a room; its events flow from now on. */
  onSubscribed?: (room: string) => void;
  onStatus?: (status: RealtimeStatus) => void;
  createSocket?: (url: string) => RealtimeSocket;
  random?: () => number;
}

/**
 * The chat socket: connects while a token exists, resumes from the last cursor after a
 * drop, and reconnects by the spec's schedule until the attempts run out.
 */
export function createRealtimeClient(options: RealtimeClientOptions) {
  const createSocket =
    options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as RealtimeSocket);
  let running = false;
  let socket: RealtimeSocket | null = null;
  let cursor: string | null = null;
  const seen = new Set<string>();
  let attempts = 0;
  let schedule = createReconnectSchedule(options.random);
  let status: RealtimeStatus = 'idle';
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let keepAlive: ReturnType<typeof setInterval> | null = null;
  /** Rooms asked for (e.g. an open chat room); joined again after every reconnect. */
  const rooms = new Map<string, number>();

  function setStatus(next: RealtimeStatus) {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  }

  function later(task: () => void, ms: number) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      task();
    }, ms);
    timers.add(timer);
    return timer;
  }

  function cancel(timer: ReturnType<typeof setTimeout> | null) {
    if (timer === null) return;
    clearTimeout(timer);
    timers.delete(timer);
  }

  function handleMessage(data: unknown) {
    if (typeof data !== 'string') return;
    let parsed: ReturnType<typeof socketServerMessage.safeParse>;
    try {
      parsed = socketServerMessage.safeParse(JSON.parse(data));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'hello') {
      // With a cursor of our own the server replays from it; taking the head cursor here
      // would skip those events if the socket dropped mid-replay.
      const resumed = cursor !== null;
      cursor ??= message.cursor;
      options.onHello?.({ resumed });
    } else if (message.type === 'event') {
      // A resume replays a little before our cursor (events may commit out of cursor
      // order), so an event already handled is dropped, and the cursor only moves forward.
      if (seen.has(message.cursor)) return;
      seen.add(message.cursor);
      if (seen.size > rememberedCursors) seen.delete(seen.values().next().value as string);
      if (cursor === null || BigInt(message.cursor) > BigInt(cursor)) cursor = message.cursor;
      options.onEvent?.(message);
    } else if (message.type === 'resync') {
      cursor = message.cursor;
      options.onResync?.();
    } else if (message.type === 'subscribed') {
      if (rooms.has(message.room)) options.onSubscribed?.(message.room);
    }
  }

  function connect() {
    if (!running) return;
    const token = options.getToken();
    if (!token) {
      setStatus('idle');
      return;
    }
    setStatus('connecting');
    const current = createSocket(options.url(token, cursor));
    socket = current;
    let openedAt: number | null = null;
    let uptimeTimer: ReturnType<typeof setTimeout> | null = null;

    const connectTimer = later(() => {
      if (openedAt !== null || socket !== current) return;
      // A socket stuck in CONNECTING may never fire close by itself; treat it as failed now.
      detach(current);
      current.close();
      afterClose(token, false, null);
    }, socketReconnect.connectTimeoutMs);

    current.onopen = () => {
      if (socket !== current) return;
      openedAt = Date.now();
      cancel(connectTimer);
      setStatus('open');
      uptimeTimer = later(() => {
        attempts = 0;
      }, socketReconnect.resetAfterUptimeMs);
      keepAlive = setInterval(() => current.send(JSON.stringify({ type: 'ping' })), keepAliveIntervalMs);
      for (const room of rooms.keys()) current.send(JSON.stringify({ type: 'subscribe', room }));
    };
    current.onmessage = (event) => handleMessage(event.data);
    current.onerror = () => {
      // The close event that follows carries the code; nothing to decide here.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      cancel(connectTimer);
      cancel(uptimeTimer);
      detach(current);
      afterClose(token, openedAt !== null, event.code);
    };
  }

  function detach(target: RealtimeSocket) {
    target.onopen = null;
    target.onmessage = null;
    target.onclose = null;
    target.onerror = null;
    if (socket === target) socket = null;
    if (keepAlive !== null) clearInterval(keepAlive);
    keepAlive = null;
  }

  function afterClose(token: string, wasOpen: boolean, code: number | null) {
    if (!running) return;
    if (code === unauthorizedCloseCode || (!wasOpen && options.isTokenExpired?.(token))) {
      setStatus('waiting');
      void options.refreshToken(token).then(() => {
        if (running && socket === null) retry(wasOpen);
      });
      return;
    }
    retry(wasOpen);
  }

  function retry(afterWorkingConnection: boolean) {
    if (!options.getToken()) {
      setStatus('idle');
      return;
    }
    // A new outage starts from a fresh random minimum.
    if (attempts === 0) schedule = createReconnectSchedule(options.random);
    attempts += 1;
    const backoff = schedule.delayFor(attempts);
    if (backoff === null) {
      setStatus('failed');
      return;
    }
    // A connection that was working comes back quickly; repeated failures back off.
    const delay = afterWorkingConnection && attempts === 1 ? socketReconnect.reconnectAfterCloseMs : backoff;
    setStatus('waiting');
    later(connect, delay);
  }

  function clearTimers() {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  }

  return {
    /** Connects (or reconnects after giving up) when a token exists. */
    start() {
      if (running && status !== 'failed') return;
      running = true;
      attempts = 0;
      clearTimers();
      connect();
    },
    /** Closes the socket for good, e.g. on sign-out. */
    stop() {
      running = false;
      clearTimers();
      const current = socket;
      if (current) {
        detach(current);
        current.close(1000, 'client stopped');
      }
      setStatus('idle');
    },
    /**
     * Joins a room (such as `ticket:42`) while the returned function is not called; the
     * room is joined again after each reconnect. Several callers may hold the same room.
     */
    joinRoom(room: string): () => void {
      const holders = rooms.get(room) ?? 0;
      rooms.set(room, holders + 1);
      if (holders === 0 && status === 'open') socket?.send(JSON.stringify({ type: 'subscribe', room }));
      return () => {
        const left = (rooms.get(room) ?? 1) - 1;
        if (left > 0) {
          rooms.set(room, left);
          return;
        }
        rooms.delete(room);
        if (status === 'open') socket?.send(JSON.stringify({ type: 'unsubscribe', room }));
      };
    },
    get cursor() {
      return cursor;
    },
    get status() {
      return status;
    },
  };
}
