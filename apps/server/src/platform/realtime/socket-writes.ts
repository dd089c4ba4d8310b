import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** Connections whose writes are held until the end of the current tick. */
const held = new WeakSet<Socket>();

/**
 * Sends a frame on an open socket; every frame a socket is sent in the same tick (a batch of
 * events, an acknowledgement and its echo) goes out in one write. ws writes each frame with a
 * system call of its own, and on the loopback each such call also does the receiving side's
 * work: sending frames to sockets was a quarter of the server's CPU time in the realtime
 * bench's ingest (twentieth stop). The connection is corked for the rest of the tick; ws's own
 * cork and uncork around each frame nest inside it.
 */
export function sendFrame(socket: WebSocket, data: string): void {
  if (socket.readyState !== socket.OPEN) return;
  // ws keeps its connection here; without it (another transport) each frame goes alone.
  const connection = (socket as unknown as { _socket?: Socket })._socket;
  if (connection && !connection.destroyed && !held.has(connection)) {
    held.add(connection);
    connection.cork();
    process.nextTick(() => {
      held.delete(connection);
      connection.uncork();
    });
  }
  socket.send(data);
}
