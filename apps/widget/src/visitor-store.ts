/** What the widget keeps in the visitor's browser, per widget. */
export interface StoredVisitor {
  token: string;
  visitorId: string;
  /** ISO instant after which the token is refused and the pre-chat form shows again. */
  expiresAt: string;
  /** The newest server id the visitor has seen with the panel open (for the unread badge). */
  lastSeenServerId: number;
  /** Messages written but not yet acknowledged: re-sent with the same id. */
  pending: PendingMessage[];
}

export interface PendingMessage {
  id: string;
  body: string;
  attachmentIds: string[];
  ts: number;
}

/**
 * localStorage under one key per widget. Storage can be missing or full (private modes,
 * quotas): the chat then works for the page's lifetime only, which is better than failing.
 */
export class VisitorStore {
  private readonly key: string;
  private memory: StoredVisitor | null = null;

  constructor(widgetId: string) {
    this.key = `omni-livechat:${widgetId}`;
  }

  load(): StoredVisitor | null {
    try {
      const raw = localStorage.getItem(this.key);
      if (raw) this.memory = JSON.parse(raw) as StoredVisitor;
    } catch {}
    const stored = this.memory;
    if (!stored?.token || Date.parse(stored.expiresAt) <= Date.now()) return null;
    stored.pending = Array.isArray(stored.pending) ? stored.pending : [];
    return stored;
  }

  save(visitor: StoredVisitor): void {
    this.memory = visitor;
    try {
      localStorage.setItem(this.key, JSON.stringify(visitor));
    } catch {}
  }

  clear(): void {
    this.memory = null;
    try {
      localStorage.removeItem(this.key);
    } catch {}
  }
}
