import {
  appVersion,
  auditLogEventMaxBytes,
  type PostAuditLogBody,
  type RequestTimingEntry,
  requestTimingLogType,
  requestTimingWindowMs,
} from '@app/contracts';
import type { ApiResult } from '../../shared/api-client';
import type { RequestTimingRecorder } from '../../shared/request-timing';

const byteLength = (text: string) => new TextEncoder().encode(text).length;

function bodyOf(entries: RequestTimingEntry[]): PostAuditLogBody {
  return {
    type: requestTimingLogType,
    event: JSON.stringify({ version: appVersion, source: 'BROWSER', entries }),
    result: entries.some((entry) => entry.level === 'error') ? 'ERROR' : 'OK',
  };
}

/**
 * The log posts that carry `entries`, oldest first: as many entries per post as fit the
 * server's event limit (8 KB), so a backlog after a time offline is sent whole, in parts.
 * Each post's result is ERROR when one of its entries is at level error, else OK.
 */
export function clientLogBatches(
  entries: readonly RequestTimingEntry[],
  maxEventBytes = auditLogEventMaxBytes,
): Array<{ body: PostAuditLogBody; lastAt: string }> {
  const batches: Array<{ body: PostAuditLogBody; lastAt: string }> = [];
  let current: RequestTimingEntry[] = [];
  for (const entry of entries) {
    const grown = [...current, entry];
    if (current.length > 0 && byteLength(bodyOf(grown).event) > maxEventBytes) {
      batches.push({ body: bodyOf(current), lastAt: current[current.length - 1].at });
      current = [entry];
    } else {
      current = grown;
    }
  }
  if (current.length > 0) batches.push({ body: bodyOf(current), lastAt: current[current.length - 1].at });
  return batches;
}

export interface ClientLogOptions {
  recorder: Pick<RequestTimingRecorder, 'unposted' | 'markPosted'>;
  post: (body: PostAuditLogBody) => Promise<ApiResult<unknown>>;
  intervalMs?: number;
}

/**
 * Sends the timing entries the log post has not sent yet. A post the server refuses
 * (4xx) would be refused forever, so its entries are passed over; an unreachable server
 * or a 5xx keeps them for the next round.
 */
export async function sendClientLog(options: ClientLogOptions): Promise<void> {
  for (const batch of clientLogBatches(options.recorder.unposted())) {
    const result = await options.post(batch.body);
    const refused = !result.ok && result.error.statusCode >= 400 && result.error.statusCode < 500;
    if (!result.ok && !refused) return;
    options.recorder.markPosted(batch.lastAt);
  }
}

/**
 * Starts the client log: every 60 s the new timing entries go to POST /api/log/logs with
 * type REQUEST_TIMING and an event of version, source BROWSER and the entries (core-inbox
 * §7). Rounds never overlap. Returns the function that stops it.
 */
export function startClientLog(options: ClientLogOptions): () => void {
  let sending = false;
  const timer = setInterval(() => {
    if (sending) return;
    sending = true;
    void sendClientLog(options).finally(() => {
      sending = false;
    });
  }, options.intervalMs ?? requestTimingWindowMs);
  return () => clearInterval(timer);
}
