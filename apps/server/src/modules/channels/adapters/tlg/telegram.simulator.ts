// A Telegram Bot API server on 127.0.0.1 that speaks Telegram's real protocol: bots from a
// pretend BotFather, `/bot<token>/<method>` calls in GET query, JSON, form or multipart,
// `{ok, result}` / `{ok:false, error_code, description}` answers, webhooks with the secret
// header and retries, getUpdates, files. Tests drive it in process; the bench and developers
// run it alone (bench/lib/telegram-simulator-server.ts) and reach it over `/__simulator/*`.
import { randomBytes, randomInt } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  type CustomerMessageInput,
  type SentTelegramMessage,
  type SimulatedBotIdentity,
  SimulatedTelegramBot,
  type UpdateDelivery,
} from './telegram-simulator-bot';
import { callTelegramMethod, type TelegramParams, type UploadedFile } from './telegram-simulator-methods';
import { TelegramApiError, type TelegramCustomer } from './telegram-simulator-types';

export type {
  CustomerMessageInput,
  SentTelegramMessage,
  SimulatedBotIdentity,
  UpdateDelivery,
} from './telegram-simulator-bot';
export type {
  TelegramChat,
  TelegramChatMemberUpdated,
  TelegramCustomer,
  TelegramDocument,
  TelegramFile,
  TelegramMessage,
  TelegramPhotoSize,
  TelegramUpdate,
  TelegramUser,
} from './telegram-simulator-types';
export { telegramSecretHeader, telegramTextUpdate } from './telegram-simulator-types';

/** A programmed refusal: Telegram's error_code, its description, and retry_after for a 429. */
export interface TelegramFailure {
  code: number;
  description: string;
  retryAfter?: number;
}

/** What `webhookOf` tells: the webhook a server registered, or null. */
export interface TelegramWebhookView {
  url: string;
  secretToken: string | null;
  allowedUpdates: string[];
}

/** Telegram's upload limit for documents (photos are 10 MB there; the larger bound is kept here). */
const uploadLimitBytes = 50 * 1024 * 1024;

function sendTelegramError(reply: FastifyReply, error: TelegramApiError) {
  return reply.code(error.code).send({
    ok: false,
    error_code: error.code,
    description: error.description,
    ...(error.retryAfter !== undefined ? { parameters: { retry_after: error.retryAfter } } : {}),
  });
}

/** Telegram's answer on Telegram's paths; the project's error object on `/__simulator`. */
function presentError(
  error: Error & { code?: unknown; statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const refusal =
    error instanceof TelegramApiError
      ? error
      : error.code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413
        ? new TelegramApiError(413, 'Request Entity Too Large')
        : error.statusCode && error.statusCode < 500
          ? new TelegramApiError(error.statusCode, `Bad Request: ${error.message}`)
          : new TelegramApiError(500, 'Internal Server Error');
  if (!request.url.startsWith('/__simulator')) return sendTelegramError(reply, refusal);
  const name = refusal.code === 500 ? 'Internal Server Error' : 'Bad Request';
  return reply.code(refusal.code).send(errorObject(refusal.code, name, refusal.description));
}

function errorObject(statusCode: number, error: string, message: string) {
  return { statusCode, error, message };
}

/** The simulated Telegram: a Fastify app, and the bots it knows by token. */
export class TelegramSimulator {
  private readonly app: FastifyInstance;
  private readonly bots = new Map<string, SimulatedTelegramBot>();
  private lastBotId = randomInt(6_000_000_000, 7_000_000_000);
  private address = '';

  private constructor() {
    this.app = Fastify({ logger: false });
    this.app.register(multipart, {
      limits: { fileSize: uploadLimitBytes, files: 10, fields: 50, parts: 60 },
    });
    this.parseBodies();
    this.routeBotApi();
    this.routeIntrospection();
  }

  /** Starts listening on 127.0.0.1, on `port` or a free one. */
  static async start(options: { port?: number } = {}): Promise<TelegramSimulator> {
    const simulator = new TelegramSimulator();
    simulator.address = await simulator.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
    return simulator;
  }

  /** The API base a server is given: calls go to `${url}/bot<token>/<method>`. */
  get url(): string {
    return this.address;
  }

  async stop(): Promise<void> {
    for (const bot of this.bots.values()) bot.wakePoll('stop');
    await this.app.close();
  }

  /** A new bot with a BotFather-shaped token `<id>:<35 chars>`; ids and usernames are unique here. */
  addBot(input: { id?: number; username?: string; firstName?: string } = {}): SimulatedBotIdentity {
    const bots = [...this.bots.values()].map((bot) => bot.identity);
    const taken = (username: string) =>
      bots.some((bot) => bot.username.toLowerCase() === username.toLowerCase());
    if (input.id !== undefined && bots.some((bot) => bot.id === input.id))
      throw new Error(`bot id ${input.id} is taken`);
    if (input.username !== undefined && taken(input.username))
      throw new Error(`bot username ${input.username} is taken`);
    let id = input.id;
    while (id === undefined || bots.some((bot) => bot.id === id)) id = ++this.lastBotId;
    const ordinal = bots.length + 1;
    let username = input.username;
    for (let index = ordinal; !username || taken(username); index += 1)
      username = index === 1 ? 'toko_demo_bot' : `toko${index}_bot`;
    const identity: SimulatedBotIdentity = {
      // Real tokens' secret half is 35 url-safe characters, and today's start with "AA".
      token: `${id}:AA${randomBytes(25).toString('base64url').slice(0, 33)}`,
      id,
      username,
      firstName: input.firstName ?? (ordinal === 1 ? 'Toko Demo' : `Toko ${ordinal}`),
    };
    this.bots.set(identity.token, new SimulatedTelegramBot(identity));
    return identity;
  }

  /** Makes the next `times` calls of `method` fail as given (e.g. a 429 with retryAfter). */
  failNext(token: string, method: string, error: TelegramFailure, times = 1): void {
    this.botOf(token).failNext(method, error, times);
  }

  /** Sends to this chat answer 403 "Forbidden: bot was blocked by the user" until unblocked. */
  block(token: string, chatId: number): void {
    this.botOf(token).blocked.add(chatId);
  }

  unblock(token: string, chatId: number): void {
    this.botOf(token).blocked.delete(chatId);
  }

  /**
   * A customer writes to the bot: the update is POSTed to the webhook (three attempts) or
   * queued for getUpdates (then status and attempts are 0).
   */
  customerWrites(token: string, input: CustomerMessageInput): Promise<UpdateDelivery> {
    return this.botOf(token).customerWrites(input);
  }

  /** The customer blocks the bot: a `my_chat_member` update (status `kicked`), delivered the same way. */
  customerBlocks(token: string, chatId: number): Promise<UpdateDelivery> {
    return this.botOf(token).customerBlocks(chatId);
  }

  /**
   * Opens a private chat without an update, as if the customer had written before: for the
   * bench, which posts its own updates to the server and still needs the replies accepted.
   */
  openChat(token: string, customer: TelegramCustomer): void {
    this.botOf(token).openChat(customer);
  }

  /** Every message the bot sent, in order. */
  sent(token: string): SentTelegramMessage[] {
    return [...this.botOf(token).sent];
  }

  webhookOf(token: string): TelegramWebhookView | null {
    const webhook = this.botOf(token).webhook;
    if (!webhook) return null;
    return {
      url: webhook.url,
      secretToken: webhook.secretToken,
      allowedUpdates: [...webhook.allowedUpdates],
    };
  }

  private botOf(token: string): SimulatedTelegramBot {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`no simulated bot has the token ${token}`);
    return bot;
  }

  /** Telegram takes JSON (an empty body too), url-encoded forms and multipart (registered in start). */
  private parseBodies() {
    this.app.removeContentTypeParser('application/json');
    this.app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      if (body === '') return done(null, {});
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new TelegramApiError(400, "Bad Request: can't parse JSON object"), undefined);
      }
    });
    this.app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    this.app.setErrorHandler(presentError);
    this.app.setNotFoundHandler((_request, reply) =>
      sendTelegramError(reply, new TelegramApiError(404, 'Not Found')),
    );
  }

  private routeBotApi() {
    this.app.route<{ Params: { token: string; method: string } }>({
      method: ['GET', 'POST'],
      url: '/bot:token/:method',
      handler: async (request, reply) => {
        const bot = this.bots.get(request.params.token);
        if (!bot) return sendTelegramError(reply, new TelegramApiError(401, 'Unauthorized'));
        const params: TelegramParams = { ...(request.query as TelegramParams) };
        const uploads = new Map<string, UploadedFile>();
        if (request.isMultipart()) {
          for await (const part of request.parts()) {
            if (part.type === 'file')
              uploads.set(part.fieldname, {
                fileName: part.filename,
                mimeType: part.mimetype,
                bytes: await part.toBuffer(),
              });
            else params[part.fieldname] = part.value;
          }
        } else if (request.body && typeof request.body === 'object') {
          Object.assign(params, request.body);
        }
        const answer = await callTelegramMethod(bot, request.params.method, params, uploads);
        return reply.send({
          ok: true,
          result: answer.result,
          ...(answer.description ? { description: answer.description } : {}),
        });
      },
    });

    this.app.get<{ Params: { token: string; '*': string } }>('/file/bot:token/*', async (request, reply) => {
      const bot = this.bots.get(request.params.token);
      if (!bot) return sendTelegramError(reply, new TelegramApiError(401, 'Unauthorized'));
      const file = bot.files.atPath(request.params['*']);
      if (!file) return sendTelegramError(reply, new TelegramApiError(404, 'Not Found'));
      return reply.type(file.mimeType).send(file.bytes);
    });
  }

  /** For other processes (the bench's load process): bots, chats, webhooks and what was sent. */
  private routeIntrospection() {
    this.app.get('/api/health', async () => ({ status: 'ok' }));

    this.app.post<{ Body: { id?: number; username?: string; firstName?: string } | undefined }>(
      '/__simulator/bots',
      async (request, reply) => {
        try {
          return this.addBot(request.body ?? {});
        } catch (error) {
          return reply.code(400).send(errorObject(400, 'Bad Request', (error as Error).message));
        }
      },
    );

    const known = (token: string, reply: FastifyReply) => {
      const bot = this.bots.get(token);
      if (!bot) reply.code(404).send(errorObject(404, 'Not Found', 'no bot has this token'));
      return bot;
    };

    this.app.get<{ Params: { token: string } }>(
      '/__simulator/bots/:token/webhook',
      async (request, reply) => {
        if (!known(request.params.token, reply)) return reply;
        const webhook = this.webhookOf(request.params.token);
        if (!webhook) return reply.code(404).send(errorObject(404, 'Not Found', 'no webhook is set'));
        return webhook;
      },
    );

    this.app.get<{ Params: { token: string } }>('/__simulator/bots/:token/sent', async (request, reply) => {
      if (!known(request.params.token, reply)) return reply;
      return this.sent(request.params.token).map(({ bytes: _bytes, ...entry }) => entry);
    });

    this.app.post<{ Params: { token: string }; Body: TelegramCustomer }>(
      '/__simulator/bots/:token/chats',
      async (request, reply) => {
        if (!known(request.params.token, reply)) return reply;
        const customer = request.body;
        if (!Number.isSafeInteger(customer?.chatId) || typeof customer.firstName !== 'string')
          return reply.code(400).send(errorObject(400, 'Bad Request', 'chatId and firstName are required'));
        this.openChat(request.params.token, customer);
        return reply.code(204).send();
      },
    );

    // A customer writes a text (a developer's demo from the command line): delivered to the
    // webhook as any update, answered with how the delivery went.
    this.app.post<{ Params: { token: string }; Body: TelegramCustomer & { text?: string } }>(
      '/__simulator/bots/:token/messages',
      async (request, reply) => {
        if (!known(request.params.token, reply)) return reply;
        const input = request.body;
        if (!Number.isSafeInteger(input?.chatId) || typeof input.firstName !== 'string' || !input.text)
          return reply
            .code(400)
            .send(errorObject(400, 'Bad Request', 'chatId, firstName and text are required'));
        const delivery = await this.customerWrites(request.params.token, input);
        return { status: delivery.status, attempts: delivery.attempts, update: delivery.update };
      },
    );
  }
}
