import type {
  VisitorAttachment,
  VisitorRegistrationBody,
  VisitorRegistrationResponse,
  WidgetPublicConfig,
} from '@app/contracts';

/** A refused call: the status tells the widget which text to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function answerOf<T>(response: Response): Promise<T> {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, (body as { message?: string }).message ?? '');
  return body as T;
}

/** The server's HTTP calls for one widget; `origin` is where widget.js came from. */
export class WidgetApi {
  constructor(
    readonly origin: string,
    readonly widgetId: string,
  ) {}

  private url(pathname: string): string {
    return `${this.origin}/api/livechat${pathname}`;
  }

  async config(): Promise<WidgetPublicConfig> {
    return answerOf(await fetch(this.url(`/widget/${this.widgetId}/config`), { credentials: 'omit' }));
  }

  async register(body: VisitorRegistrationBody): Promise<VisitorRegistrationResponse> {
    const response = await fetch(this.url(`/widget/${this.widgetId}/visitors`), {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return answerOf(response);
  }

  async upload(token: string, file: File): Promise<VisitorAttachment> {
    const form = new FormData();
    form.append('file', file, file.name);
    const response = await fetch(this.url(`/upload?widgetId=${encodeURIComponent(this.widgetId)}`), {
      method: 'POST',
      credentials: 'omit',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return answerOf(response);
  }

  /** The visitor socket's address; `since` resumes after the last message this page has. */
  socketUrl(token: string, since: number | null): string {
    const base = this.origin.replace(/^http/, 'ws');
    const query = `widgetId=${encodeURIComponent(this.widgetId)}&token=${encodeURIComponent(token)}`;
    return `${base}/api/livechat/ws?${query}${since ? `&since=${since}` : ''}`;
  }

  /** A link from the server made absolute; anything but http(s) is dropped, never followed. */
  absolute(link: string): string | null {
    try {
      const url = new URL(link, this.origin);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      return null;
    }
  }
}
