import { describe, expect, it } from 'vitest';
import type { KeyedRoomPage } from './room-page.repository';
import { RoomPageCache } from './room-page-cache';

const pageOf = (fingerprint: string, texts: number): KeyedRoomPage => ({
  fingerprint,
  hasMore: false,
  rows: Array.from({ length: 10 }, (_, index) => ({
    id: index,
    key: `${index}.1`,
    view: JSON.stringify({ id: index, text: 'x'.repeat(texts) }),
    attachments: null,
  })),
});

describe('RoomPageCache', () => {
  it('keeps the most recently opened pages within its bytes, and none when it has none', () => {
    const cache = new RoomPageCache(30_000);
    cache.keep('a', pageOf('fa', 500));
    cache.keep('b', pageOf('fb', 500));
    expect(cache.size.pages).toBe(2);
    // Opening a puts it last; c then pushes out b, the least recently opened.
    expect(cache.get('a')?.fingerprint).toBe('fa');
    cache.keep('c', pageOf('fc', 500));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.fingerprint).toBe('fa');
    expect(cache.get('c')?.fingerprint).toBe('fc');
    expect(cache.size.bytes).toBeLessThanOrEqual(30_000);

    // A page kept again replaces the one before, and its bytes are counted once.
    const before = cache.size.bytes;
    cache.keep('c', pageOf('fd', 500));
    expect(cache.get('c')?.fingerprint).toBe('fd');
    expect(cache.size.bytes).toBe(before);

    // A page larger than the whole is not kept, and pushes nothing out.
    cache.keep('huge', pageOf('fh', 5_000));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size.pages).toBe(2);

    const none = new RoomPageCache(0);
    expect(none.enabled).toBe(false);
    none.keep('a', pageOf('fa', 10));
    expect(none.get('a')).toBeUndefined();
  });

  it('keys a page by client, by how the room is named and by page size', () => {
    expect(RoomPageCache.keyOf('c1', { ticketId: 7 }, 50)).not.toBe(
      RoomPageCache.keyOf('c2', { ticketId: 7 }, 50),
    );
    expect(RoomPageCache.keyOf('c1', { ticketId: 7 }, 50)).not.toBe(
      RoomPageCache.keyOf('c1', { roomId: '7' }, 50),
    );
    expect(RoomPageCache.keyOf('c1', { ticketId: 7 }, 50)).not.toBe(
      RoomPageCache.keyOf('c1', { ticketId: 7 }, 20),
    );
  });
});
