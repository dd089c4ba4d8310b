import type { VisitorRegistrationBody, WidgetPublicConfig } from '@app/contracts';
import { ApiError, type WidgetApi } from './api';
import { ChatSession } from './chat-session';
import { ConversationView } from './conversation-view';
import { el, icon, icons } from './dom';
import type { Texts } from './locales';
import { prechatForm } from './prechat-form';
import { styles } from './styles';
import { closeCodes } from './visitor-socket';
import type { VisitorStore } from './visitor-store';

/** A colour from the settings, or the live-chat blue when it is not a plain hex colour. */
const safeColour = (colour: string) => (/^#[0-9a-f]{3,8}$/i.test(colour) ? colour : '#2563EB');

/**
 * The widget on the page: a bubble in the widget's colour and a panel with a header,
 * then either the pre-chat form or the conversation. It lives in a shadow root so the
 * host page's CSS cannot break it.
 */
export class ChatWidget {
  private readonly root: ShadowRoot;
  private readonly bubble: HTMLButtonElement;
  private readonly badge = el('span', { cls: 'badge', hidden: true });
  private readonly panel = el('div', { cls: 'panel', role: 'dialog', hidden: true });
  private readonly stateLine = el('div', { cls: 'state' });
  private content: HTMLElement = el('div', { cls: 'body' });
  private session: ChatSession | null = null;
  private view: ConversationView | null = null;
  private config: WidgetPublicConfig | null = null;

  constructor(
    host: HTMLElement,
    private readonly api: WidgetApi,
    private readonly store: VisitorStore,
    private readonly texts: Texts,
  ) {
    this.root = host.attachShadow({ mode: 'open' });
    this.bubble = el(
      'button',
      { type: 'button', cls: 'bubble', 'aria-label': texts.openChat, hidden: true },
      [icon(icons.chat), this.badge],
    );
    this.bubble.addEventListener('click', () => this.toggle());
    this.root.append(el('style', { text: styles }), this.panel, this.bubble);
  }

  /** Loads the configuration and shows the bubble; a visitor with a token goes straight to the chat. */
  async start(): Promise<void> {
    try {
      this.config = await this.api.config();
    } catch (error) {
      // A widget that cannot load stays invisible rather than break the host page.
      console.warn(
        '[live chat]',
        error instanceof ApiError && error.status === 403 ? this.texts.notAllowed : error,
      );
      return;
    }
    const config = this.config;
    this.root.host.setAttribute('style', `--c:${safeColour(config.colour)}`);
    const close = el('button', { type: 'button', cls: 'x', 'aria-label': this.texts.closeChat }, [
      icon(icons.close),
    ]);
    close.addEventListener('click', () => this.toggle(false));
    const logoUrl = config.logoUrl ? this.api.absolute(config.logoUrl) : null;
    const logo = logoUrl
      ? el('img', { cls: 'logo', src: logoUrl, alt: '' })
      : el('div', { cls: 'logo', text: config.name.trim().charAt(0).toUpperCase() });
    this.panel.setAttribute('aria-label', config.name);
    this.panel.append(
      el('div', { cls: 'head' }, [
        logo,
        el('div', { cls: 'who' }, [el('div', { cls: 'name', text: config.name }), this.stateLine]),
        close,
      ]),
      this.content,
    );
    this.setState(false);
    this.bubble.hidden = false;
    const visitor = this.store.load();
    if (visitor) this.openSession();
    else this.showForm();
  }

  toggle(open = this.panel.hidden): void {
    this.panel.hidden = !open;
    this.bubble.setAttribute('aria-expanded', String(open));
    this.session?.setVisible(open);
    if (open) {
      this.view?.scrollToEnd();
      this.view?.focus();
    }
  }

  private setState(connected: boolean): void {
    const config = this.config!;
    this.stateLine.replaceChildren(
      el('span', { cls: config.online ? 'dot on' : 'dot' }),
      el('span', { text: config.online ? config.onlineTitle : config.offlineTitle }),
    );
    if (this.session && !connected) this.stateLine.append(el('span', { text: `· ${this.texts.connecting}` }));
  }

  private replaceContent(next: HTMLElement): void {
    this.content.replaceWith(next);
    this.content = next;
  }

  private showForm(): void {
    const config = this.config!;
    const intro = el('div', { cls: 'intro' }, [
      el('b', { text: config.online ? config.onlineTitle : config.offlineTitle }),
      el('span', { text: config.online ? config.onlineMessage : config.offlineMessage }),
    ]);
    this.replaceContent(
      el('div', { cls: 'body' }, [intro, prechatForm(config, this.texts, (body) => this.register(body))]),
    );
  }

  private async register(body: VisitorRegistrationBody): Promise<string | null> {
    try {
      const answer = await this.api.register(body);
      this.store.save({ ...answer, lastSeenServerId: 0, pending: [] });
      this.openSession();
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) return this.texts.tooManyStarts;
      if (error instanceof ApiError && error.status === 403) return this.texts.notAllowed;
      return this.texts.startFailed;
    }
  }

  private openSession(): void {
    const visitor = this.store.load();
    if (!visitor) {
      this.showForm();
      return;
    }
    const view = new ConversationView(this.texts, {
      send: (body) => this.session?.send(body),
      attach: (file) => void this.session?.attach(file),
      typing: (typing) => this.session?.typing(typing),
      retry: (key) => this.session?.retry(key),
      link: (url) => this.api.absolute(url),
    });
    this.view = view;
    this.replaceContent(view.element);
    this.session = new ChatSession(this.api, this.store, visitor, view, this.texts, {
      ended: (code) => this.end(code),
      unread: (count) => {
        this.badge.textContent = String(count);
        this.badge.hidden = count === 0;
      },
      connected: (connected) => this.setState(connected),
    });
    this.session.setVisible(!this.panel.hidden);
    this.session.start();
    if (!this.panel.hidden) view.focus();
  }

  /** The token was refused (expired, or the widget changed hands): start over with the form. */
  private end(code: number): void {
    this.session?.stop();
    this.session = null;
    this.view = null;
    if (code === closeCodes.originRefused) {
      this.replaceContent(
        el('div', { cls: 'body' }, [el('div', { cls: 'intro', text: this.texts.notAllowed })]),
      );
      return;
    }
    this.store.clear();
    this.showForm();
    this.setState(false);
  }
}
