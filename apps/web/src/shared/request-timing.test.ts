import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import {
  createRequestTimingRecorder,
  normalizeRequestPath,
  type RequestSample,
  requestTiming,
} from './request-timing';
import { endSession } from './session';
import { storageKeys } from './storage-keys';

const minute = 60_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T08:00:00Z'));
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

function recorder() {
  return createRequestTimingRecorder({ storage: localStorage, ignoredPaths: ['/api/log/logs'] });
}

const call = (path: string, durationMs: number, ok = true): RequestSample => ({ path, durationMs, ok });

describe('normalizeRequestPath', () => {
  it('drops the query, fragment and origin and replaces ids with :id', () => {
    expect(
      normalizeRequestPath('/api/ticket/tickets/0b7a3c5e-1f2d-4c3b-9a8e-7d6c5b4a3f21/messages?cursor=abc'),
    ).toBe('/api/ticket/tickets/:id/messages');
    expect(normalizeRequestPath('/api/ticket/groups/42')).toBe('/api/ticket/groups/:id');
    expect(normalizeRequestPath('/api/ticket/groupMembership/ani%40toko.test/groups')).toBe(
      '/api/ticket/groupMembership/:id/groups',
    );
    expect(normalizeRequestPath('https://inbox.example.com/api/media/5f2b9c1d8e7a6b5c4d3e#x')).toBe(
      '/api/media/:id',
    );
    expect(normalizeRequestPath('/api/identity/users/me')).toBe('/api/identity/users/me');
    expect(normalizeRequestPath('?only=query')).toBe('/');
  });
});

describe('request timing recorder', () => {
  it('closes a window 60 s after its first call into one entry', () => {
    const timing = recorder();
    timing.record(call('/api/a', 100));
    timing.record(call('/api/b/17', 400, false));
    timing.record(call('/api/a', 250));
    vi.advanceTimersByTime(minute - 1);
    expect(timing.entries()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(timing.entries()).toEqual([
      {
        at: '2026-03-01T08:01:00.000Z',
        averageMs: 250,
        successCount: 2,
        errorCount: 1,
        slowestPath: '/api/b/:id',
        slowestMs: 400,
        level: 'info',
      },
    ]);
  });

  it('records nothing for a window without calls', () => {
    const timing = recorder();
    timing.record(call('/api/a', 10));
    vi.advanceTimersByTime(minute);
    vi.advanceTimersByTime(10 * minute);
    expect(timing.entries()).toHaveLength(1);
    timing.record(call('/api/a', 10));
    vi.advanceTimersByTime(minute);
    expect(timing.entries()).toHaveLength(2);
  });

  it('reports an error only when the average is above 10 s', () => {
    const timing = recorder();
    timing.record(call('/api/slow', 10_000));
    vi.advanceTimersByTime(minute);
    timing.record(call('/api/slow', 20_000));
    timing.record(call('/api/fast', 2));
    vi.advanceTimersByTime(minute);
    timing.record(call('/api/slow', 9_000));
    timing.record(call('/api/slower', 11_004));
    vi.advanceTimersByTime(minute);
    expect(timing.entries().map((entry) => [entry.averageMs, entry.level])).toEqual([
      [10_000, 'info'],
      [10_001, 'error'],
      [10_002, 'error'],
    ]);
  });

  it('keeps only the last 100 entries', () => {
    const timing = recorder();
    for (let index = 1; index <= 105; index += 1) {
      timing.record(call('/api/a', index));
      vi.advanceTimersByTime(minute);
    }
    const entries = timing.entries();
    expect(entries).toHaveLength(100);
    expect(entries[0].averageMs).toBe(6);
    expect(entries.at(-1)?.averageMs).toBe(105);
  });

  it('survives a reload through storage and ignores a corrupt stored log', () => {
    const first = recorder();
    first.record(call('/api/a', 30));
    vi.advanceTimersByTime(minute);
    const reloaded = recorder();
    expect(reloaded.entries()).toHaveLength(1);
    localStorage.setItem(storageKeys.requestTiming, '{not json');
    expect(recorder().entries()).toEqual([]);
  });

  it('does not time the log post itself', () => {
    const timing = recorder();
    timing.record(call('/api/log/logs', 30));
    vi.advanceTimersByTime(minute);
    expect(timing.entries()).toHaveLength(0);
  });

  it('hands the log post only what it has not sent yet', () => {
    const timing = recorder();
    timing.record(call('/api/a', 1));
    vi.advanceTimersByTime(minute);
    timing.record(call('/api/a', 2));
    vi.advanceTimersByTime(minute);
    expect(timing.unposted().map((entry) => entry.averageMs)).toEqual([1, 2]);
    timing.markPosted(timing.unposted()[1].at);
    expect(timing.unposted()).toEqual([]);
    timing.record(call('/api/a', 3));
    vi.advanceTimersByTime(minute);
    expect(timing.unposted().map((entry) => entry.averageMs)).toEqual([3]);
    // The mark is stored too: a reload does not send the same entries again.
    expect(
      recorder()
        .unposted()
        .map((entry) => entry.averageMs),
    ).toEqual([3]);
  });
});

describe('the browser recorder', () => {
  it('is fed by the api client with each completed call', async () => {
    const samples: RequestSample[] = [];
    const client = createApiClient({
      tokens: { read: () => null, write: () => undefined },
      onSessionExpired: () => undefined,
      fetch: async (input) =>
        String(input).includes('missing')
          ? new Response('{"message":"nope"}', { status: 404 })
          : new Response('{}', { status: 200 }),
      onCallCompleted: (sample) => samples.push(sample),
    });
    await client.get('/api/a', { query: { page: 2 } });
    await client.get('/api/missing');
    expect(samples.map(({ path, ok }) => [path, ok])).toEqual([
      ['/api/a', true],
      ['/api/missing', false],
    ]);
    expect(samples.every((sample) => sample.durationMs >= 0)).toBe(true);
  });

  it('is cleared, stored copy and memory, when the session ends', () => {
    localStorage.setItem(storageKeys.accessToken, 'a');
    localStorage.setItem(storageKeys.refreshToken, 'r');
    requestTiming.record(call('/api/a', 5));
    vi.advanceTimersByTime(minute);
    expect(localStorage.getItem(storageKeys.requestTiming)).not.toBeNull();
    requestTiming.record(call('/api/b', 5));
    endSession('signed-out');
    expect(localStorage.getItem(storageKeys.requestTiming)).toBeNull();
    expect(requestTiming.entries()).toEqual([]);
    // The window open at sign-out is gone too: nothing is written back later.
    vi.advanceTimersByTime(minute);
    expect(localStorage.getItem(storageKeys.requestTiming)).toBeNull();
  });
});
