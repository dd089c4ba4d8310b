import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { sendFrame } from './socket-writes';

let server: WebSocketServer | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
});

/** A real ws server and client; the server side's socket and the frames the client got. */
async function connected() {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server!.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) => server!.once('connection', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const received: string[] = [];
  client.on('message', (data) => received.push(data.toString()));
  await new Promise((resolve) => client.once('open', resolve));
  const socket = await accepted;
  // How many times the server side's connection hands its buffered frames to the system.
  const connection = (socket as unknown as { _socket: Socket & { _writev: (...args: unknown[]) => void } })
    ._socket;
  const writes = { count: 0 };
  const writev = connection._writev.bind(connection);
  connection._writev = (...args: unknown[]) => {
    writes.count += 1;
    writev(...args);
  };
  return { socket, client, received, writes };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('sendFrame', () => {
  it("writes every frame a socket gets in one tick with one call, in order, and the next tick's again", async () => {
    const { socket, client, received, writes } = await connected();
    for (const n of [1, 2, 3, 4]) sendFrame(socket, `frame ${n}`);
    await until(() => received.length === 4);
    expect(received).toEqual(['frame 1', 'frame 2', 'frame 3', 'frame 4']);
    expect(writes.count).toBe(1);
    sendFrame(socket, 'frame 5');
    sendFrame(socket, 'frame 6');
    await until(() => received.length === 6);
    expect(received.slice(4)).toEqual(['frame 5', 'frame 6']);
    expect(writes.count).toBe(2);
    client.close();
  });

  it('sends nothing on a socket that is closing, and a close in the same tick still goes out', async () => {
    const { socket, client, received } = await connected();
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    sendFrame(socket, 'last');
    socket.close(1001, 'server shutting down');
    sendFrame(socket, 'after close');
    expect(await closed).toBe(1001);
    expect(received).toEqual(['last']);
  });
});
