import { randomUUID } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import {
  attachmentCategoryOf,
  attachmentRefusal,
  attachmentRulesOf,
  type VisitorAttachment,
  type VisitorRegistrationBody,
  type VisitorRegistrationResponse,
  visitorErrors,
  type WidgetPublicConfig,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../platform/http/http-errors';
import type { StoredAttachment } from '../inbox/attachment-store';
import { anyAgentOnline, findLiveWidget, type WidgetRow } from './visitor.repository';
import type { VisitorClaims, VisitorTokens } from './visitor-token';

/** What the visitor side needs from media: keeping a visitor's file and linking to files. */
export interface VisitorMedia {
  saveStream(
    clientId: string,
    ownerRef: string,
    file: { name: string; mime: string },
    content: Readable,
  ): Promise<StoredAttachment>;
  resolve(clientId: string, ownerRef: string, fileIds: ReadonlyArray<string>): Promise<StoredAttachment[]>;
  linkOf(clientId: string, attachment: { id: string; url?: string }): string;
}

/** What the visitor side needs from the widget settings: recording the first load on the site. */
export interface WidgetConnections {
  markConnected(clientId: string, widgetId: string, at?: Date): Promise<void>;
}

/** A visitor's file upload as the route hands it over. */
export interface VisitorUpload {
  name: string;
  mime: string;
  content: Readable;
}

/** An authenticated visitor and the widget they talk to. */
export interface Visitor {
  claims: VisitorClaims;
  widget: WidgetRow;
}

/**
 * Files uploaded before the visitor's first message exist before their contact identity
 * does, so a visitor's files belong to their visitor id, which the token fixes.
 */
export const visitorOwnerRef = (visitorId: string) => `visitor:${visitorId}`;

class AttachmentTooLarge extends Error {}

/** A pass-through that fails once more than `maxBytes` went through it. */
function limitedTo(maxBytes: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(new AttachmentTooLarge());
      else done(null, chunk);
    },
  });
}

/**
 * The visitor's side of the live chat before the socket: the widget's public
 * configuration, the pre-chat form that makes a visitor token, and file uploads within the
 * live chat's attachment rules.
 */
export class VisitorService {
  constructor(
    private readonly db: Database,
    private readonly tokens: VisitorTokens,
    private readonly media: VisitorMedia,
    private readonly connections: WidgetConnections,
  ) {}

  /** The live widget, or 404 with the widget text. */
  async widget(widgetId: string): Promise<WidgetRow> {
    const widget = await findLiveWidget(this.db, widgetId);
    if (!widget) throw notFound(visitorErrors.widgetNotFound);
    return widget;
  }

  /**
   * What the widget shows before a chat. The first load from the widget's own domain marks
   * the widget connected (commerce: connected once the embed code is installed).
   */
  async config(widget: WidgetRow, loadedOnDomain: boolean): Promise<WidgetPublicConfig> {
    if (loadedOnDomain) await this.markConnected(widget);
    const online = await withTenant(this.db, widget.clientId, (tx) => anyAgentOnline(tx, widget.clientId));
    return {
      widgetId: widget.id,
      name: widget.name,
      colour: widget.colour,
      logoUrl: widget.logoFileId ? this.media.linkOf(widget.clientId, { id: widget.logoFileId }) : null,
      online,
      onlineTitle: widget.onlineTitle,
      onlineMessage: widget.onlineMessage,
      offlineTitle: widget.offlineTitle,
      offlineMessage: widget.offlineMessage,
      prechatFields: widget.prechatFields,
      consentText: widget.consentText,
    };
  }

  /** The widget has loaded on its own domain: the settings show it connected from now on. */
  async markConnected(widget: WidgetRow): Promise<void> {
    if (!widget.connectedAt) await this.connections.markConnected(widget.clientId, widget.id);
  }

  /**
   * The pre-chat form: checks the required fields (an e-mail when no agent is online, so
   * the business can answer) and signs a new visitor token. No row is written yet: the
   * contact and its ticket are made by the visitor's first message.
   */
  async register(widget: WidgetRow, body: VisitorRegistrationBody): Promise<VisitorRegistrationResponse> {
    // An extra field that asks for the e-mail or phone fills the validated top-level one.
    const { email: _email, phone: _phone, ...fields } = body.fields;
    const email = body.email ?? null;
    const phone = body.phone ?? null;
    for (const field of widget.prechatFields) {
      const value =
        field.customizedData === 'email'
          ? email
          : field.customizedData === 'phone'
            ? phone
            : fields[field.customizedData];
      if (field.required && !value?.trim())
        throw badRequest(`${visitorErrors.requiredField}: ${field.label}`);
    }
    if (!email) {
      const online = await withTenant(this.db, widget.clientId, (tx) => anyAgentOnline(tx, widget.clientId));
      if (!online) throw badRequest(visitorErrors.emailRequiredOffline);
    }
    const known = new Set(widget.prechatFields.map((field) => field.customizedData));
    const answers = Object.fromEntries(
      Object.entries(fields).filter(([key, value]) => known.has(key) && value),
    );
    const visitorId = randomUUID();
    const { token, expiresAt } = await this.tokens.sign({
      widgetId: widget.id,
      clientId: widget.clientId,
      channelAccountId: widget.channelAccountId,
      visitorId,
      name: body.name,
      email,
      phone,
      fields: answers,
    });
    return { token, visitorId, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The visitor behind a token, with their widget. Refused (401) when the token is forged
   * or expired, names another widget than the caller's, or its widget is gone or has
   * changed hands.
   */
  async authenticate(token: string | undefined | null, widgetId?: string): Promise<Visitor> {
    const claims = await this.tokens.verify(token);
    if (!claims || (widgetId && widgetId !== claims.widgetId)) throw unauthorized(visitorErrors.invalidToken);
    const widget = await findLiveWidget(this.db, claims.widgetId);
    if (!widget || widget.clientId !== claims.clientId || widget.channelAccountId !== claims.channelAccountId)
      throw unauthorized(visitorErrors.invalidToken);
    return { claims, widget };
  }

  /** Keeps a visitor's file when the live chat accepts its type and size. */
  async upload(visitor: Visitor, file: VisitorUpload): Promise<VisitorAttachment> {
    const { clientId, visitorId } = visitor.claims;
    const refusal = attachmentRefusal('LVC', { name: file.name, mime: file.mime, size: 0 });
    const rule = attachmentRulesOf('LVC')[attachmentCategoryOf(file.mime)];
    if (refusal || !rule) {
      file.content.resume();
      throw badRequest(visitorErrors.attachmentType);
    }
    let stored: StoredAttachment;
    try {
      stored = await this.media.saveStream(
        clientId,
        visitorOwnerRef(visitorId),
        { name: file.name, mime: file.mime },
        // pipeline, not pipe: a failing upload stream must fail the save, not stall it.
        pipeline(file.content, limitedTo(rule.maxBytes), () => undefined),
      );
    } catch (error) {
      if (error instanceof AttachmentTooLarge || (error instanceof HttpError && error.statusCode === 413))
        throw new HttpError(413, visitorErrors.attachmentSize);
      throw error;
    }
    return this.present(clientId, stored);
  }

  /** A file as the widget shows it, with a link the visitor's page can open. */
  present(clientId: string, file: StoredAttachment): VisitorAttachment {
    return {
      id: file.id,
      name: file.name,
      mime: file.mime,
      size: file.size,
      type: attachmentCategoryOf(file.mime),
      url: this.media.linkOf(clientId, file),
    };
  }

  /** Refuses a browser page of another site (403). */
  assertOrigin(allowed: boolean): void {
    if (!allowed) throw forbidden(visitorErrors.originNotAllowed);
  }
}
