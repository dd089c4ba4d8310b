import type { LivechatWidgetView } from '@app/contracts';
import type { LivechatWidgetRow } from './livechat-widget.repository';

/** The script tag a business puts on its site; the widget finds its settings by id. */
export function embedCodeOf(baseUrl: string, widgetId: string): string {
  return `<script src="${baseUrl}/widget.js" data-widget-id="${widgetId}" async></script>`;
}

/** A widget as the settings screens show it; `logoUrl` is already signed and absolute. */
export function presentWidget(
  row: LivechatWidgetRow,
  links: { baseUrl: string; logoUrl: string | null },
): LivechatWidgetView {
  return {
    id: row.id,
    channelAccountId: row.channelAccountId,
    name: row.name,
    domain: row.domain,
    logoFileId: row.logoFileId,
    logoUrl: links.logoUrl,
    colour: row.colour,
    onlineTitle: row.onlineTitle,
    onlineMessage: row.onlineMessage,
    offlineTitle: row.offlineTitle,
    offlineMessage: row.offlineMessage,
    prechatFields: row.prechatFields as LivechatWidgetView['prechatFields'],
    consentText: row.consentText,
    connected: row.connectedAt !== null,
    connectedAt: row.connectedAt?.toISOString() ?? null,
    embedCode: embedCodeOf(links.baseUrl, row.id),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
