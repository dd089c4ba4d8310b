import {
  type RequestTimingEntry,
  requestTimingEntry,
  requestTimingErrorAverageMs,
  requestTimingMaxEntries,
  requestTimingWindowMs,
} from '@app/contracts';
import { z } from 'zod';
import { onSessionEnded } from './session';
import { storageKeys } from './storage-keys';

/** One completed API call as the api client reports it. */
export interface RequestSample {
  path: string;
  durationMs: number;
  ok: boolean;
}

/** Longest path kept in an entry, so one odd URL cannot bloat the log post. */
const pathMaxLength = 200;

const idSegment =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|[0-9a-f]{16,}|[^/]*@[^/]*)$/i;

/**
 * The path a timing entry names: no origin, no query or fragment, and every id (uuid,
 * number, long hex, e-mail) replaced by `:id`, so calls to one endpoint count as one path
 * and no customer data reaches the log.
 */
export function normalizeRequestPath(url: string): string {
  const withoutOrigin = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, '');
  const path = withoutOrigin.split(/[?#]/)[0] || '/';
  const normalized = path
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {}
      return idSegment.test(decoded) ? ':id' : segment;
    })
    .join('/');
  return normalized.slice(0, pathMaxLength);
}

/** What the stored log holds: the entries and how far the log post has sent them. */
const storedLog = z.object({
  entries: z.array(requestTimingEntry),
  postedThrough: z.string().nullable(),
});
type StoredLog = z.infer<typeof storedLog>;

export interface RequestTimingRecorderOptions {
  /** Where the log survives a reload; null keeps it in memory only. */
  storage?: Storage | null;
  storageKey?: string;
  windowMs?: number;
  maxEntries?: number;
  /** Paths never recorded: the log post itself, so posting the log does not feed it. */
  ignoredPaths?: readonly string[];
}

/**
 * The request timing log (core-inbox §7): each completed call joins the open window; 60 s
 * after a window's first call it closes into one entry with the average time, success and
 * error counts and the slowest path, at level `error` when the average is above 10 s.
 * A window without calls records nothing. The last 100 entries are kept, in memory and in
 * storage so a reload keeps them; sign-out clears them with the rest of the stored state.
 */
export function createRequestTimingRecorder(options: RequestTimingRecorderOptions = {}) {
  const storage = options.storage ?? null;
  const storageKey = options.storageKey ?? storageKeys.requestTiming;
  const windowMs = options.windowMs ?? requestTimingWindowMs;
  const maxEntries = options.maxEntries ?? requestTimingMaxEntries;
  const ignored = new Set(options.ignoredPaths ?? []);

  let log: StoredLog | null = null;
  let window = { count: 0, totalMs: 0, successCount: 0, errorCount: 0, slowestPath: '', slowestMs: -1 };
  let timer: ReturnType<typeof setTimeout> | null = null;

  function load(): StoredLog {
    if (log) return log;
    log = { entries: [], postedThrough: null };
    try {
      const raw = storage?.getItem(storageKey);
      const parsed = raw ? storedLog.safeParse(JSON.parse(raw)) : null;
      if (parsed?.success) log = { ...parsed.data, entries: parsed.data.entries.slice(-maxEntries) };
    } catch {
      // Unreadable stored log: start a new one rather than fail the calls that feed it.
    }
    return log;
  }

  function save(): void {
    try {
      storage?.setItem(storageKey, JSON.stringify(load()));
    } catch {
      // Storage full or refused: the log still lives in memory.
    }
  }

  function closeWindow(): void {
    timer = null;
    if (window.count === 0) return;
    const averageMs = Math.round(window.totalMs / window.count);
    const entry: RequestTimingEntry = {
      at: new Date().toISOString(),
      averageMs,
      successCount: window.successCount,
      errorCount: window.errorCount,
      slowestPath: window.slowestPath,
      slowestMs: Math.round(window.slowestMs),
      level: averageMs > requestTimingErrorAverageMs ? 'error' : 'info',
    };
    window = { count: 0, totalMs: 0, successCount: 0, errorCount: 0, slowestPath: '', slowestMs: -1 };
    const current = load();
    current.entries = [...current.entries, entry].slice(-maxEntries);
    save();
  }

  return {
    /** Adds one completed call to the open window, opening one (and its 60 s timer) if needed. */
    record(sample: RequestSample): void {
      const path = normalizeRequestPath(sample.path);
      if (ignored.has(path)) return;
      const durationMs = Math.max(0, sample.durationMs);
      window.count += 1;
      window.totalMs += durationMs;
      if (sample.ok) window.successCount += 1;
      else window.errorCount += 1;
      if (durationMs > window.slowestMs) {
        window.slowestMs = durationMs;
        window.slowestPath = path;
      }
      timer ??= setTimeout(closeWindow, windowMs);
    },

    /** The kept entries, oldest first. */
    entries(): readonly RequestTimingEntry[] {
      return load().entries;
    },

    /** Entries the log post has not sent yet, oldest first. */
    unposted(): RequestTimingEntry[] {
      const { entries, postedThrough } = load();
      return postedThrough === null ? [...entries] : entries.filter((entry) => entry.at > postedThrough);
    },

    /** Marks every entry up to and including `at` as sent by the log post. */
    markPosted(at: string): void {
      const current = load();
      if (current.postedThrough === null || at > current.postedThrough) current.postedThrough = at;
      save();
    },

    /** Forgets everything, the open window included (sign-out: the next user starts clean). */
    clear(): void {
      if (timer) clearTimeout(timer);
      timer = null;
      window = { count: 0, totalMs: 0, successCount: 0, errorCount: 0, slowestPath: '', slowestMs: -1 };
      log = { entries: [], postedThrough: null };
      try {
        storage?.removeItem(storageKey);
      } catch {}
    },
  };
}

export type RequestTimingRecorder = ReturnType<typeof createRequestTimingRecorder>;

/** The path of the client log post; its own calls are not timed (see ignoredPaths). */
export const clientLogPath = '/api/log/logs';

/** The browser's recorder, fed by the api client; kept in localStorage. */
export const requestTiming = createRequestTimingRecorder({
  storage: typeof localStorage === 'undefined' ? null : localStorage,
  ignoredPaths: [clientLogPath],
});

// endSession already removed the stored key with the rest of the state; this drops the
// copy in memory and the open window, which would otherwise be written back.
onSessionEnded(() => requestTiming.clear());
