import type { KeyedRoomPage } from './room-page.repository';

/**
 * The newest pages of the rooms this process served lately, so opening a room again costs
 * PostgreSQL a look at its newest messages' row versions instead of writing them as JSON.
 * Nothing here is trusted on its own: every request still reads the ticket's access and the
 * page's fingerprint in one statement (`checkedNewestPageQuery`), and a page is answered from
 * here only when the fingerprint is the one it was kept under. A message written, changed or
 * deleted in the page, or one of its quoted messages changed, shows as another fingerprint,
 * whichever process wrote it; then only the messages whose keys changed are written as JSON.
 * The kept pages are bounded by an estimate of their bytes; the least recently opened go first.
 * Keys carry the client, so a page is never looked up by another tenant's request.
 */
export class RoomPageCache {
  private readonly pages = new Map<string, KeyedRoomPage & { bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  static keyOf(clientId: string, of: { roomId: string } | { ticketId: number }, limit: number): string {
    return `${clientId}|${'roomId' in of ? `r${of.roomId}` : `t${of.ticketId}`}|${limit}`;
  }

  get(key: string): KeyedRoomPage | undefined {
    const page = this.pages.get(key);
    if (page) {
      // Map keeps insertion order: taken out and put back, it is the most recently used.
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  keep(key: string, page: KeyedRoomPage): void {
    if (!this.enabled) return;
    this.drop(key);
    const bytes = sizeOf(key, page);
    if (bytes > this.maxBytes) return;
    this.pages.set(key, { ...page, bytes });
    this.bytes += bytes;
    for (const [oldest, kept] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.bytes -= kept.bytes;
    }
  }

  /** What is kept now: pages and their estimated bytes. */
  get size(): { pages: number; bytes: number } {
    return { pages: this.pages.size, bytes: this.bytes };
  }

  private drop(key: string): void {
    const kept = this.pages.get(key);
    if (!kept) return;
    this.pages.delete(key);
    this.bytes -= kept.bytes;
  }
}

/** Two bytes a character of the texts, and a little for each object around them. */
function sizeOf(key: string, page: KeyedRoomPage): number {
  let bytes = 2 * (key.length + page.fingerprint.length) + 96;
  for (const row of page.rows) {
    bytes += 2 * (row.view.length + row.key.length) + 64;
    if (row.attachments) bytes += 2 * JSON.stringify(row.attachments).length;
  }
  return bytes;
}
