import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  type LivechatWidgetBody,
  type LivechatWidgetView,
  livechatErrors,
  livechatLimits,
  livechatWidgetTopics,
  logoExtensions,
  logoMimeTypes,
} from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEvent, rooms } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, HttpError, notFound } from '../../platform/http/http-errors';
import { readImageHeader } from '../media/image-dimensions';
import type { MediaService } from '../media/media.service';
import { presentWidget } from './livechat-widget.presenter';
import {
  deleteWidget,
  findWidget,
  insertWidget,
  insertWidgetChannelAccount,
  isDomainTaken,
  type LivechatWidgetRow,
  listWidgets,
  markWidgetConnected,
  updateWidget,
  type WidgetSettings,
} from './livechat-widget.repository';

/** Whether a host name resolves; the settings check a domain exists before saving it. */
export type HostLookup = (hostname: string) => Promise<boolean>;

/**
 * Resolves the host through the system resolver, giving up after a short wait (a slow
 * resolver counts as not found). Loopback names and IP addresses exist by definition.
 */
export const systemHostLookup: HostLookup = async (hostname) => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isIP(host)) return true;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), livechatLimits.domainLookupTimeoutMs);
  });
  try {
    return await Promise.race([
      lookup(host).then(
        () => true,
        () => false,
      ),
      gaveUp,
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/** True when a database error is the unique index that keeps a domain to one widget. */
function isDomainConflict(error: unknown): boolean {
  for (
    let current = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
    current;
  ) {
    if (current.code === '23505' && current.constraint === 'livechat_widgets_domain_unique') return true;
    current = current.cause as typeof current;
  }
  return false;
}

/**
 * Live-chat widget settings (commerce 'Live chat widget'): each widget is one LVC channel
 * account of its client, on one domain no other widget uses, with a small logo.
 */
export class LivechatWidgetService {
  constructor(
    private readonly db: Database,
    private readonly media: MediaService,
    private readonly options: { publicUrl?: string; hostLookup?: HostLookup } = {},
  ) {}

  async list(caller: AuthContext, origin: string): Promise<LivechatWidgetView[]> {
    const rows = await withTenant(this.db, caller.clientId, (tx) => listWidgets(tx, caller.clientId));
    return rows.map((row) => this.present(row, origin));
  }

  /** One widget of the caller's client; another client's is simply not found. */
  async get(caller: AuthContext, widgetId: string, origin: string): Promise<LivechatWidgetView> {
    return this.present(await this.load(caller.clientId, widgetId), origin);
  }

  /** Creates the widget with its channel account, not connected, in one transaction. */
  async create(caller: AuthContext, body: LivechatWidgetBody, origin: string): Promise<LivechatWidgetView> {
    const settings = await this.validated(caller, body, null);
    const row = await this.guardDomain(() =>
      withTenant(this.db, caller.clientId, async (tx) => {
        const accountId = await insertWidgetChannelAccount(tx, caller.clientId, settings);
        const created = await insertWidget(tx, caller.clientId, accountId, settings);
        await this.announce(tx, created, 'created');
        return created;
      }),
    );
    return this.present(row, origin);
  }

  /** Replaces every setting; the domain and logo are checked again only when they change. */
  async update(
    caller: AuthContext,
    widgetId: string,
    body: LivechatWidgetBody,
    origin: string,
  ): Promise<LivechatWidgetView> {
    const current = await this.load(caller.clientId, widgetId);
    const settings = await this.validated(caller, body, current);
    const row = await this.guardDomain(() =>
      withTenant(this.db, caller.clientId, async (tx) => {
        const updated = await updateWidget(tx, caller.clientId, current, settings);
        await this.announce(tx, updated, 'updated');
        return updated;
      }),
    );
    return this.present(row, origin);
  }

  async remove(caller: AuthContext, widgetId: string): Promise<void> {
    const current = await this.load(caller.clientId, widgetId);
    await withTenant(this.db, caller.clientId, async (tx) => {
      await deleteWidget(tx, caller.clientId, current);
      await this.announce(tx, current, 'deleted');
    });
  }

  /**
   * Records that the widget has loaded on its site for the first time (the visitor side
   * calls it); the settings screen then shows it connected. Later loads change nothing.
   */
  async markConnected(clientId: string, widgetId: string, at: Date = new Date()): Promise<void> {
    await withTenant(this.db, clientId, async (tx) => {
      const row = await markWidgetConnected(tx, clientId, widgetId, at);
      if (row) await this.announce(tx, row, 'connected');
    });
  }

  private async load(clientId: string, widgetId: string): Promise<LivechatWidgetRow> {
    const row = await withTenant(this.db, clientId, (tx) => findWidget(tx, clientId, widgetId));
    if (!row) throw notFound(livechatErrors.widgetNotFound);
    return row;
  }

  private present(row: LivechatWidgetRow, origin: string): LivechatWidgetView {
    const baseUrl = (this.options.publicUrl ?? origin).replace(/\/+$/, '');
    const logoUrl = row.logoFileId
      ? `${baseUrl}${this.media.linkOf(row.clientId, { id: row.logoFileId })}`
      : null;
    return presentWidget(row, { baseUrl, logoUrl });
  }

  private async announce(tx: Executor, row: LivechatWidgetRow, change: string): Promise<void> {
    await appendEvent(tx, {
      clientId: row.clientId,
      topic: livechatWidgetTopics.changed,
      rooms: [rooms.client(row.clientId)],
      payload: { widgetId: row.id, change },
    });
  }

  /** The domain rules beyond its shape (free, and its host exists), then the logo's. */
  private async validated(
    caller: AuthContext,
    body: LivechatWidgetBody,
    current: LivechatWidgetRow | null,
  ): Promise<WidgetSettings> {
    const url = new URL(body.domain);
    const domain = url.origin;
    if (domain.toLowerCase() !== current?.domain.toLowerCase()) {
      if (await isDomainTaken(this.db, domain, current?.id))
        throw new HttpError(409, livechatErrors.domainDuplicate);
      const hostExists = await (this.options.hostLookup ?? systemHostLookup)(url.hostname);
      if (!hostExists) throw badRequest(livechatErrors.domainNotFound);
    }
    await this.checkLogo(caller, body.logoFileId, current?.logoFileId ?? null);
    return { ...body, domain };
  }

  /**
   * A logo is a png or jpeg file of at most 5 MB and 320x320 pixels, read from its own
   * header. A new logo must be the caller's upload; the widget's current one may stay.
   */
  private async checkLogo(caller: AuthContext, fileId: string, currentLogoId: string | null): Promise<void> {
    const ownerRef = fileId === currentLogoId ? undefined : `user:${caller.userId}`;
    const file = await this.media.findReady(caller.clientId, fileId, ownerRef);
    if (!file) throw badRequest(livechatErrors.logoNotFound);
    const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
    if (!logoMimeTypes.includes(file.mime) || !logoExtensions.includes(extension))
      throw badRequest(livechatErrors.logoType);
    if (file.size > livechatLimits.logoMaxBytes) throw badRequest(livechatErrors.logoSize);
    const opened = await this.media.read(caller.clientId, fileId);
    if (!opened) throw badRequest(livechatErrors.logoNotFound);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    const header = readImageHeader(Buffer.concat(chunks));
    if (!header) throw badRequest(livechatErrors.logoType);
    if (header.width > livechatLimits.logoMaxPixels || header.height > livechatLimits.logoMaxPixels)
      throw badRequest(livechatErrors.logoDimensions);
  }

  /** Two saves racing for one domain: the unique index decides, the loser hears why. */
  private async guardDomain<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isDomainConflict(error)) throw new HttpError(409, livechatErrors.domainDuplicate);
      throw error;
    }
  }
}
