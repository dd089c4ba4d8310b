import { appVersion, auditLogEventMaxBytes, type PostAuditLogBody } from '@app/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api-client';
import { createRequestTimingRecorder } from '../../shared/request-timing';
import { clientLogBatches, sendClientLog, startClientLog } from './client-log';

const minute = 60_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T08:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

/** A recorder with one closed window per average given. */
function recorderWith(averages: number[]) {
  const recorder = createRequestTimingRecorder({ storage: null });
  for (const averageMs of averages) {
    recorder.record({ path: `/api/tickets/${averageMs}/messages`, durationMs: averageMs, ok: true });
    vi.advanceTimersByTime(minute);
  }
  return recorder;
}

const ok: ApiResult<unknown> = { ok: true, data: {} };
const failed = (statusCode: number): ApiResult<unknown> => ({
  ok: false,
  error: { statusCode, error: 'error', message: 'x' },
});

describe('client log', () => {
  it('posts the new entries as REQUEST_TIMING with version and source BROWSER', async () => {
    const recorder = recorderWith([120, 15_000]);
    const posts: PostAuditLogBody[] = [];
    const post = async (body: PostAuditLogBody) => {
      posts.push(body);
      return ok;
    };
    await sendClientLog({ recorder, post });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ type: 'REQUEST_TIMING', result: 'ERROR' });
    const event = JSON.parse(posts[0].event);
    expect(event).toMatchObject({ version: appVersion, source: 'BROWSER' });
    expect(event.entries.map((entry: { slowestPath: string }) => entry.slowestPath)).toEqual([
      '/api/tickets/:id/messages',
      '/api/tickets/:id/messages',
    ]);
    // Sent once: the next round has nothing to send.
    await sendClientLog({ recorder, post });
    expect(posts).toHaveLength(1);
  });

  it('answers OK when no entry is at level error', () => {
    const [batch] = clientLogBatches(recorderWith([10, 20]).unposted());
    expect(batch.body.result).toBe('OK');
  });

  it('splits a backlog into posts within the server event limit, losing none', () => {
    const entries = recorderWith(Array.from({ length: 100 }, (_, index) => index + 1)).unposted();
    const batches = clientLogBatches(entries);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches)
      expect(new TextEncoder().encode(batch.body.event).length).toBeLessThanOrEqual(auditLogEventMaxBytes);
    const sent = batches.flatMap((batch) => JSON.parse(batch.body.event).entries);
    expect(sent).toEqual(entries);
  });

  it('keeps the entries when the server cannot be reached, drops what it refuses', async () => {
    const recorder = recorderWith([1, 2]);
    await sendClientLog({ recorder, post: async () => failed(0) });
    expect(recorder.unposted()).toHaveLength(2);
    await sendClientLog({ recorder, post: async () => failed(503) });
    expect(recorder.unposted()).toHaveLength(2);
    await sendClientLog({ recorder, post: async () => failed(400) });
    expect(recorder.unposted()).toHaveLength(0);
  });

  it('sends every 60 s until stopped', async () => {
    const recorder = createRequestTimingRecorder({ storage: null });
    const post = vi.fn(async () => ok);
    const stop = startClientLog({ recorder, post });
    recorder.record({ path: '/api/a', durationMs: 5, ok: true });
    await vi.advanceTimersByTimeAsync(minute);
    // The window closed at the same tick as the round; the next round sends it.
    await vi.advanceTimersByTimeAsync(minute);
    expect(post).toHaveBeenCalledTimes(1);
    stop();
    recorder.record({ path: '/api/a', durationMs: 5, ok: true });
    await vi.advanceTimersByTimeAsync(3 * minute);
    expect(post).toHaveBeenCalledTimes(1);
  });
});
