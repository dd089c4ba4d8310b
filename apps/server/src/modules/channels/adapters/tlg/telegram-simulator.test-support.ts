// What the Telegram simulator's tests share: a server's webhook endpoint that records what
// Telegram posted, a PNG's first bytes, Bot API calls, and one simulator and receiver a file.
import { crc32 } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TelegramSimulator, type TelegramUpdate, telegramSecretHeader } from './telegram.simulator';

export interface TelegramAnswer<T = unknown> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/** A server's webhook endpoint: it records what Telegram posted and answers the next programmed status. */
export interface Receiver {
  url: string;
  received: Array<{ secret: string | undefined; contentType: string | undefined; update: TelegramUpdate }>;
  statuses: number[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const app: FastifyInstance = Fastify({ logger: false });
  const receiver = { received: [], statuses: [] } as unknown as Receiver;
  app.post('/webhooks/telegram', async (request, reply) => {
    receiver.received.push({
      secret: request.headers[telegramSecretHeader] as string | undefined,
      contentType: request.headers['content-type'],
      update: request.body as TelegramUpdate,
    });
    return reply.code(receiver.statuses.shift() ?? 200).send({});
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  receiver.url = `${address}/webhooks/telegram`;
  receiver.close = () => app.close();
  return receiver;
}

/** The first bytes of a PNG: enough for anything that reads its size from the IHDR chunk. */
export function pngHeader(width: number, height: number): Buffer {
  const data = Buffer.alloc(17);
  data.write('IHDR', 0, 'latin1');
  data.writeUInt32BE(width, 4);
  data.writeUInt32BE(height, 8);
  data.set([8, 2, 0, 0, 0], 12);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(data));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    length,
    data,
    checksum,
  ]);
}

/** How Telegram refuses a call: the HTTP status is the error_code. */
export const refusal = (code: number, description: string) => ({
  status: code,
  answer: { ok: false, error_code: code, description },
});

export const budi = { chatId: 5_512_345_678, firstName: 'Budi', lastName: 'Santoso', username: 'budis' };

/**
 * One simulator and one receiver for the test file, started before its tests and stopped
 * after them; what the receiver got is forgotten after each test. `call` is a Bot API call
 * with a JSON body.
 */
export function useTelegramSimulator() {
  const kit = {
    simulator: undefined as unknown as TelegramSimulator,
    receiver: undefined as unknown as Receiver,
    async call<T = unknown>(token: string, method: string, params: Record<string, unknown> = {}) {
      const response = await fetch(`${kit.simulator.url}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
      });
      return { status: response.status, answer: (await response.json()) as TelegramAnswer<T> };
    },
  };
  beforeAll(async () => {
    kit.simulator = await TelegramSimulator.start();
    kit.receiver = await startReceiver();
  });
  afterAll(async () => {
    await kit.receiver?.close();
    await kit.simulator?.stop();
  });
  afterEach(() => {
    kit.receiver.received.length = 0;
    kit.receiver.statuses.length = 0;
  });
  return kit;
}
