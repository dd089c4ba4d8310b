import type { VisitorAttachment } from '@app/contracts';
import { el, icon, icons } from './dom';
import { format, type Texts } from './locales';

export type DeliveryState = 'sending' | 'sent' | 'read' | 'failed';

/** One message as the widget shows it; visitor messages are keyed by their client id. */
export interface ChatMessage {
  key: string;
  serverId: number | null;
  from: 'visitor' | 'agent';
  body: string;
  attachments: VisitorAttachment[];
  agentName: string | null;
  ts: string;
  state: DeliveryState;
}

export interface ConversationActions {
  send(body: string): void;
  attach(file: File): void;
  typing(typing: boolean): void;
  retry(key: string): void;
  /** Turns a server link into one the page may open, or null for anything unsafe. */
  link(url: string): string | null;
}

/**
 * The conversation: the message list, the agent's typing line, a notice line and the
 * composer. Messages are drawn with textContent and links are checked, so HTML an agent or
 * a visitor typed shows as text.
 */
export class ConversationView {
  readonly element: HTMLElement;
  private readonly list = el('div', { cls: 'list', role: 'log', 'aria-live': 'polite' });
  private readonly scroller = el('div', { cls: 'body' }, [this.list]);
  private readonly typingLine = el('div', { cls: 'typing', 'aria-live': 'polite' });
  private readonly alert = el('div', { cls: 'alert', role: 'alert', hidden: true });
  private readonly input = el('textarea', { rows: '1', maxlength: '4096', 'data-testid': 'livechat-input' });
  private readonly rows = new Map<string, HTMLElement>();
  private readonly empty: HTMLElement;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private agentTypingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly texts: Texts,
    private readonly actions: ConversationActions,
  ) {
    this.input.placeholder = texts.placeholder;
    this.input.setAttribute('aria-label', texts.placeholder);
    this.empty = el('div', { cls: 'sys', text: texts.emptyConversation });
    this.list.append(this.empty);
    const file = el('input', { type: 'file', hidden: true, accept: 'image/png,image/jpeg,*/*' });
    const attach = el(
      'button',
      { type: 'button', cls: 'icon', title: texts.attach, 'aria-label': texts.attach },
      [icon(icons.attach)],
    );
    const send = el(
      'button',
      { type: 'submit', cls: 'icon go', title: texts.send, 'aria-label': texts.send },
      [icon(icons.send)],
    );
    const bar = el('form', { cls: 'bar' }, [attach, file, this.input, send]);
    attach.addEventListener('click', () => file.click());
    file.addEventListener('change', () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (chosen) actions.attach(chosen);
    });
    let typingSent = 0;
    this.input.addEventListener('input', () => {
      // At most one typing frame every 3 s while typing, and a stop after 4 s of quiet.
      if (Date.now() - typingSent > 3000) {
        typingSent = Date.now();
        actions.typing(true);
      }
      clearTimeout(this.typingTimer);
      this.typingTimer = setTimeout(() => {
        typingSent = 0;
        actions.typing(false);
      }, 4000);
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        bar.requestSubmit();
      }
    });
    bar.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = this.input.value.trim();
      if (!body) return;
      this.input.value = '';
      clearTimeout(this.typingTimer);
      typingSent = 0;
      actions.send(body);
    });
    this.element = el('div', { cls: 'conversation', style: 'display:contents' }, [
      this.scroller,
      this.typingLine,
      this.alert,
      bar,
    ]);
  }

  focus(): void {
    this.input.focus();
  }

  /** Draws a message, or redraws it in place when it is already shown. */
  show(message: ChatMessage): void {
    this.empty.remove();
    const row = this.render(message);
    const existing = this.rows.get(message.key);
    if (existing) {
      existing.replaceWith(row);
    } else {
      const stick = this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < 80;
      this.list.append(row);
      if (stick || message.from === 'visitor') this.scrollToEnd();
    }
    this.rows.set(message.key, row);
  }

  /** A line from the system, such as an agent joining. */
  note(text: string): void {
    this.empty.remove();
    this.list.append(el('div', { cls: 'sys', text }));
    this.scrollToEnd();
  }

  /** The agent's typing line; it goes by itself if the stop never comes (a closed tab). */
  setTyping(name: string | null): void {
    this.typingLine.textContent = name ? format(this.texts.typing, name) : '';
    clearTimeout(this.agentTypingTimer);
    if (name) this.agentTypingTimer = setTimeout(() => this.setTyping(null), 8000);
  }

  /** A notice above the composer; empty text hides it. */
  notify(text: string): void {
    this.alert.textContent = text;
    this.alert.hidden = !text;
  }

  scrollToEnd(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private render(message: ChatMessage): HTMLElement {
    const mine = message.from === 'visitor';
    const failed = message.state === 'failed';
    const row = el('div', {
      cls: `msg ${message.from}${failed ? ' failed' : ''}`,
      'data-testid': `livechat-message-${message.from}`,
    });
    if (!mine) row.append(el('div', { cls: 'from', text: message.agentName ?? this.texts.agent }));
    if (message.body) row.append(el('div', { cls: 'text', text: message.body }));
    for (const attachment of message.attachments) {
      const href = this.actions.link(attachment.url);
      if (!href) continue;
      if (attachment.type === 'image') {
        row.append(
          el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, [
            el('img', { src: href, alt: attachment.name, loading: 'lazy' }),
          ]),
        );
      } else {
        row.append(
          el('a', { href, target: '_blank', rel: 'noopener noreferrer', text: `📎 ${attachment.name}` }),
        );
      }
    }
    const time = new Date(message.ts);
    const clock = Number.isNaN(time.getTime())
      ? ''
      : time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const state = mine ? this.stateText(message.state) : '';
    row.append(el('div', { cls: 'meta', text: [clock, state].filter(Boolean).join(' · ') }));
    if (failed) {
      row.title = this.texts.failed;
      row.addEventListener('click', () => this.actions.retry(message.key), { once: true });
    }
    return row;
  }

  private stateText(state: DeliveryState): string {
    if (state === 'sending') return `🕓 ${this.texts.sending}`;
    if (state === 'sent') return `✓ ${this.texts.sent}`;
    if (state === 'read') return `✓✓ ${this.texts.read}`;
    return `⚠ ${this.texts.failed}`;
  }
}
