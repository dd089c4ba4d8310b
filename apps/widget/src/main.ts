import { WidgetApi } from './api';
import { ChatWidget } from './chat-widget';
import { textsFor } from './locales';
import { VisitorStore } from './visitor-store';

/**
 * Entry of widget.js. The embed code is
 * `<script src="<origin>/widget.js" data-widget-id="<id>" async></script>`: the script
 * finds its own tag, talks to the server it was loaded from, and adds one element to the
 * page. Loading twice (a page that pastes the code twice) starts one widget.
 */
function boot(): void {
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[data-widget-id][src*="widget.js"]');
  const widgetId = script?.dataset.widgetId;
  if (!script || !widgetId) {
    console.warn('[live chat] the script tag needs a data-widget-id attribute');
    return;
  }
  const hostId = `omni-livechat-${widgetId}`;
  if (document.getElementById(hostId)) return;
  const host = document.createElement('div');
  host.id = hostId;
  host.setAttribute('data-testid', 'livechat-widget');
  const attach = () => {
    document.body.append(host);
    const origin = new URL(script.src, location.href).origin;
    const widget = new ChatWidget(
      host,
      new WidgetApi(origin, widgetId),
      new VisitorStore(widgetId),
      textsFor(navigator.language),
    );
    void widget.start();
  };
  if (document.body) attach();
  else document.addEventListener('DOMContentLoaded', attach, { once: true });
}

boot();
