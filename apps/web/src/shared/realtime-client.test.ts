import { socketReconnect } from '@app/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeClient, createReconnectSchedule, type RealtimeSocket } from './realtime-client';

describe('reconnect schedule', () => {
  it('starts at 1 s when the random draw is lowest and grows by 1.3 up to the 10 s cap', () => {
    const schedule = createReconnectSchedule(() => 0);
    const delays = Array.from({ length: socketReconnect.attempts }, (_, i) => schedule.delayFor(i + 1));
    expect(delays).toEqual([1000, 1300, 1690, 2197, 2856, 3713, 4827, 6275, 8157, 10000]);
  });

  it('starts at 5 s when the random draw is highest and reaches the cap on the fourth attempt', () => {
    const schedule = createReconnectSchedule(() => 0.999_999_999);
    expect([1, 2, 3, 4, 5].map((attempt) => schedule.delayFor(attempt))).toEqual([
      5000, 6500, 8450, 10000, 10000,
    ]);
  });

  it('draws the minimum between 1 and 5 s', () => {
    expect(createReconnectSchedule(() => 0.5).minimumMs).toBe(3000);
    for (let i = 0; i < 50; i += 1) {
      const { minimumMs } = createReconnectSchedule();
      expect(minimumMs).toBeGreaterThanOrEqual(1000);
      expect(minimumMs).toBeLessThanOrEqual(5000);
    }
  });

  it('gives up after ten attempts', () => {
    const schedule = createReconnectSchedule(() => 0);
    expect(schedule.delayFor(10)).toBe(10_000);
    expect(schedule.delayFor(11)).toBeNull();
    expect(schedule.delayFor(0)).toBeNull();
  });
});

class FakeSocket implements RealtimeSocket {
  onopen: RealtimeSocket['onopen'] = null;
  onmessage: RealtimeSocket['onmessage'] = null;
  onclose: RealtimeSocket['onclose'] = null;
  onerror: RealtimeSocket['onerror'] = null;
  sent: string[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

describe('realtime client', () => {
  let sockets: FakeSocket[];
  let token: string | null;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    token = 'token-1';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function makeClient(extra: Partial<Parameters<typeof createRealtimeClient>[0]> = {}) {
    return createRealtimeClient({
      url: (accessToken, cursor) => `ws://test/ws?token=${accessToken}${cursor ? `&cursor=${cursor}` : ''}`,
      getToken: () => token,
      refreshToken: async () => false,
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      random: () => 0,
      ...extra,
    });
  }

  it('resumes from the last cursor one second after a working connection drops', () => {
    const client = makeClient();
    client.start();
    expect(sockets[0].url).toBe('ws://test/ws?token=token-1');
    sockets[0].open();
    sockets[0].receive({ type: 'hello', cursor: '10' });
    sockets[0].receive({
      type: 'event',
      cursor: '12',
      topic: 'agent.status_changed',
      payload: {},
      at: 'now',
    });
    sockets[0].drop();

    vi.advanceTimersByTime(socketReconnect.reconnectAfterCloseMs - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    expect(sockets[1].url).toBe('ws://test/ws?token=token-1&cursor=12');
    client.stop();
  });

  it('backs off by the schedule when connecting times out, and stops after ten attempts', () => {
    const statuses: string[] = [];
    const client = makeClient({ onStatus: (status) => statuses.push(status) });
    client.start();
    const expected = [1000, 1300, 1690, 2197, 2856, 3713, 4827, 6275, 8157, 10000];
    for (const [index, delay] of expected.entries()) {
      vi.advanceTimersByTime(socketReconnect.connectTimeoutMs);
      expect(sockets[index].closed).toBe(true);
      vi.advanceTimersByTime(delay - 1);
      expect(sockets).toHaveLength(index + 1);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(index + 2);
    }
    vi.advanceTimersByTime(socketReconnect.connectTimeoutMs + 60_000);
    expect(sockets).toHaveLength(11);
    expect(client.status).toBe('failed');
    expect(statuses.at(-1)).toBe('failed');
  });

  it('resets the attempt count after five seconds up', () => {
    const client = makeClient();
    client.start();
    sockets[0].drop();
    vi.advanceTimersByTime(1000);
    sockets[1].drop();
    vi.advanceTimersByTime(1300);
    expect(sockets).toHaveLength(3);

    sockets[2].open();
    vi.advanceTimersByTime(socketReconnect.resetAfterUptimeMs);
    sockets[2].drop();
    vi.advanceTimersByTime(socketReconnect.reconnectAfterCloseMs);
    expect(sockets).toHaveLength(4);
    client.stop();
  });

  it('invalidates cached data on resync and keeps the new cursor', () => {
    const onResync = vi.fn();
    const client = makeClient({ onResync });
    client.start();
    sockets[0].open();
    sockets[0].receive({ type: 'resync', cursor: '99' });
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(client.cursor).toBe('99');
    client.stop();
  });

  it('refreshes the refused token after a 4401 close and reconnects with the new one', async () => {
    const refreshToken = vi.fn(async (refused: string) => {
      expect(refused).toBe('token-1');
      token = 'token-2';
      return true;
    });
    const client = makeClient({ refreshToken });
    client.start();
    sockets[0].drop(4401);
    await vi.advanceTimersByTimeAsync(1000);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(sockets[1].url).toBe('ws://test/ws?token=token-2');
    client.stop();
  });

  it('treats a failed handshake with an expired token as refused and refreshes it', async () => {
    const refreshToken = vi.fn(async () => {
      token = 'token-2';
      return true;
    });
    const client = makeClient({ refreshToken, isTokenExpired: (candidate) => candidate === 'token-1' });
    client.start();
    sockets[0].drop(1006);
    await vi.advanceTimersByTimeAsync(1000);
    expect(refreshToken).toHaveBeenCalledWith('token-1');
    expect(sockets[1].url).toBe('ws://test/ws?token=token-2');
    client.stop();
  });

  it('stays idle without a token and closes the socket on stop', () => {
    token = null;
    const idle = makeClient();
    idle.start();
    expect(sockets).toHaveLength(0);
    expect(idle.status).toBe('idle');

    token = 'token-1';
    const client = makeClient();
    client.start();
    sockets[0].open();
    client.stop();
    expect(sockets[0].closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('tells a first hello from a resumed one, and reports confirmed rooms it holds', () => {
    const hellos: boolean[] = [];
    const joined: string[] = [];
    const client = makeClient({
      onHello: ({ resumed }) => hellos.push(resumed),
      onSubscribed: (room) => joined.push(room),
    });
    const leave = client.joinRoom('ticket:7');
    client.start();
    sockets[0].open();
    expect(sockets[0].sent).toContain(JSON.stringify({ type: 'subscribe', room: 'ticket:7' }));
    sockets[0].receive({ type: 'hello', cursor: '10' });
    sockets[0].receive({ type: 'subscribed', room: 'ticket:7' });
    // A confirmation for a room no longer held (left while the answer travelled) is not passed on.
    sockets[0].receive({ type: 'subscribed', room: 'ticket:8' });
    sockets[0].drop();
    vi.advanceTimersByTime(socketReconnect.reconnectAfterCloseMs);
    sockets[1].open();
    expect(sockets[1].sent).toContain(JSON.stringify({ type: 'subscribe', room: 'ticket:7' }));
    sockets[1].receive({ type: 'hello', cursor: '10' });
    sockets[1].receive({ type: 'subscribed', room: 'ticket:7' });
    expect(hellos).toEqual([false, true]);
    expect(joined).toEqual(['ticket:7', 'ticket:7']);
    leave();
    expect(sockets[1].sent.at(-1)).toBe(JSON.stringify({ type: 'unsubscribe', room: 'ticket:7' }));
    client.stop();
  });
});
