/**
 * Telegram's Bot API as the server calls it: `<base>/bot<token>/<method>` with a JSON body,
 * answered by `{ok: true, result}` or `{ok: false, error_code, description, parameters}`
 * (channel-protocols.md §4). The base is `TELEGRAM_API_BASE`, a simulator's in tests.
 */
export class TelegramApiError extends Error {
  constructor(
    /** Telegram's error_code (its HTTP status), or 0 when Telegram could not be reached. */
    readonly code: number,
    readonly description: string,
    /** Seconds Telegram asks to wait before the next call (429). */
    readonly retryAfter?: number,
  ) {
    super(code ? `Telegram ${code}: ${description}` : `Telegram unreachable: ${description}`);
    this.name = 'TelegramApiError';
  }

  /** Worth trying again later: flood control, Telegram's own trouble, or no answer at all. */
  get retryable(): boolean {
    return this.code === 0 || this.code === 429 || this.code >= 500;
  }
}

/** The bot as getMe describes it. */
export interface TelegramBot {
  id: number;
  first_name: string;
  username?: string;
}

/** What sendMessage and the send* methods answer: the message as Telegram stored it. */
export interface TelegramSentMessage {
  message_id: number;
  chat: { id: number };
}

/** A file getFile describes; `file_path` is what the download link needs. */
export interface TelegramFile {
  file_id: string;
  file_size?: number;
  file_path?: string;
}

/** Calls that wait longer than this are given up (and retried, for deliveries). */
const callTimeoutMs = 15_000;

export class TelegramBotApi {
  constructor(private readonly base: string) {}

  async call<T>(token: string, method: string, params: Record<string, unknown> | FormData = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}/bot${token}/${method}`, {
        method: 'POST',
        ...(params instanceof FormData
          ? { body: params }
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) }),
        signal: AbortSignal.timeout(callTimeoutMs),
      });
    } catch (error) {
      throw new TelegramApiError(0, error instanceof Error ? error.message : String(error));
    }
    const answer = (await response.json().catch(() => null)) as {
      ok?: boolean;
      result?: T;
      error_code?: number;
      description?: string;
      parameters?: { retry_after?: number };
    } | null;
    if (answer?.ok === true) return answer.result as T;
    throw new TelegramApiError(
      answer?.error_code ?? response.status,
      answer?.description ?? `HTTP ${response.status}`,
      answer?.parameters?.retry_after,
    );
  }

  getMe(token: string): Promise<TelegramBot> {
    return this.call(token, 'getMe');
  }

  setWebhook(token: string, url: string, secretToken: string): Promise<boolean> {
    return this.call(token, 'setWebhook', {
      url,
      secret_token: secretToken,
      allowed_updates: ['message', 'edited_message', 'my_chat_member'],
    });
  }

  deleteWebhook(token: string): Promise<boolean> {
    return this.call(token, 'deleteWebhook');
  }

  sendMessage(token: string, chatId: string, text: string): Promise<TelegramSentMessage> {
    return this.call(token, 'sendMessage', { chat_id: chatId, text });
  }

  /** sendPhoto or sendDocument with the file uploaded in the request. */
  sendFile(
    token: string,
    chatId: string,
    kind: 'photo' | 'document',
    file: { name: string; mime: string; bytes: Buffer },
    caption?: string,
  ): Promise<TelegramSentMessage> {
    const form = new FormData();
    form.set('chat_id', chatId);
    if (caption) form.set('caption', caption);
    form.set(kind, new Blob([new Uint8Array(file.bytes)], { type: file.mime }), file.name);
    return this.call(token, kind === 'photo' ? 'sendPhoto' : 'sendDocument', form);
  }

  getFile(token: string, fileId: string): Promise<TelegramFile> {
    return this.call(token, 'getFile', { file_id: fileId });
  }

  /** A file's bytes, by the path getFile gave. */
  async download(token: string, filePath: string): Promise<Buffer> {
    let response: Response;
    try {
      response = await fetch(`${this.base}/file/bot${token}/${filePath}`, {
        signal: AbortSignal.timeout(callTimeoutMs),
      });
    } catch (error) {
      throw new TelegramApiError(0, error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw new TelegramApiError(response.status, `file download: HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }
}
