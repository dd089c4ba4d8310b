import WebSocket from 'ws';

/** A message the server sent on the socket. */
export type Message = {
  type: string;
  cursor?: string;
  topic?: string;
  payload?: Record<string, unknown>;
  message?: string;
};

/** A socket that records what it hears and can wait for a message that matches. */
export async function openSocket(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  socket: WebSocket;
  messages: Message[];
  next(match: (message: Message) => boolean, timeoutMs?: number): Promise<Message>;
  closed: Promise<number>;
}> {
  const socket = new WebSocket(url, { headers });
  const messages: Message[] = [];
  const waiters: Array<{ match: (message: Message) => boolean; resolve: (message: Message) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Message;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    next(match, timeoutMs = 5000) {
      const seen = messages.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching socket message')), timeoutMs);
        waiters.push({
          match,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message);
          },
        });
      });
    },
  };
}
