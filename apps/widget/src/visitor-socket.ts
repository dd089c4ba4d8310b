import type { VisitorClientFrame, VisitorServerFrame } from '@app/contracts';

/** Close codes the server uses when it will not take the socket back as it is. */
export const closeCodes = { invalidToken: 4401, originRefused: 4403 } as const;

export interface SocketHandlers {
  onFrame(frame: VisitorServerFrame): void;
  /** The socket is open (true) or lost and being retried (false). */
  onConnected(connected: boolean): void;
  /** The server refused the socket for good: the token is bad or the site is not allowed. */
  onRefused(code: number): void;
}

const pingEveryMs = 25_000;
const maxDelayMs = 10_000;

/**
 * The visitor's WebSocket: reconnects with a growing delay (1 s, ×1.5, at most 10 s, with
 * jitter so a restarted server is not hit by every visitor at once) and resumes after the
 * last server id it has, so no message is lost across reconnects.
 */
export class VisitorSocket {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(
    private readonly urlFor: (since: number | null) => string,
    private readonly lastServerId: () => number | null,
    private readonly handlers: SocketHandlers,
  ) {}

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    const socket = new WebSocket(this.urlFor(this.lastServerId()));
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), pingEveryMs);
      this.handlers.onConnected(true);
    };
    socket.onmessage = (event) => {
      try {
        this.handlers.onFrame(JSON.parse(String(event.data)) as VisitorServerFrame);
      } catch {}
    };
    socket.onclose = (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === closeCodes.invalidToken || event.code === closeCodes.originRefused) {
        this.stopped = true;
        this.handlers.onRefused(event.code);
        return;
      }
      this.handlers.onConnected(false);
      if (!this.stopped) this.retry();
    };
  }

  private retry(): void {
    const delay = Math.min(maxDelayMs, 1000 * 1.5 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Sends when open; answers false otherwise, so the caller keeps the frame for later. */
  send(frame: VisitorClientFrame): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Reconnects at once (the page came back online or into view). */
  wake(): void {
    if (!this.stopped && !this.socket) this.connect();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.socket?.close(1000);
    this.socket = null;
  }
}
