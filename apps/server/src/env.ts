import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** The server's environment; an invalid value stops the start naming the variable. */
export const serverEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SEED_DEMO: flag.default(true),
  ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  WEB_DIST: z.string().optional(),
  EVENT_RETENTION_HOURS: z.coerce.number().int().min(1).default(72),
  /**
   * Customers' messages of one client stored in one transaction when they arrive faster than
   * they are stored (group commit); 1 stores every message in its own.
   */
  INBOUND_BATCH_MAX: z.coerce.number().int().min(1).max(256).default(32),
  /**
   * Those transactions of one client at once: about the database's cores (2 carried the
   * most messages on the 2-core bench machine; 8 carried a quarter fewer).
   */
  INBOUND_BATCH_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * The smallest JSON or text answer the server gzips for a client that accepts it (browsers
   * do); 0 compresses nothing, for a deployment whose proxy compresses instead.
   */
  COMPRESS_FROM_BYTES: z.coerce.number().int().min(0).default(1400),
  /**
   * Megabytes of rooms' newest pages a server process keeps to answer a room opened again
   * (room-page-cache.ts); every answer is still checked against the database. 0 keeps none.
   */
  ROOM_PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /**
   * How often a worker process adds waiting messages' words to the keyword search (migration
   * 0030). A search drains its own client first, so this only decides how much a search may
   * find waiting.
   */
  SEARCH_WORDS_INTERVAL_MS: z.coerce.number().int().min(20).max(60_000).default(200),
  /**
   * How often a worker process merges the GIN indexes' pending lists (migration 0033); 0 leaves
   * them to PostgreSQL, which merges a list inside whichever insert finds it past 4 MB. Merging
   * a few seconds' entries at a time cost PostgreSQL about as little as merging more (the
   * twenty-second stop's micro), and keeps what a search reads of the lists short.
   */
  GIN_PENDING_LISTS_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /**
   * How often a worker process hands the outbox's batched topics to their queues (a push for
   * each customer's message): every 2 s, a Telegram run at 300/s answered its webhook at p99
   * 25.9–26.7 ms; every 250 ms, at 12.2–21.1 ms (the twenty-fourth stop). Other topics go the
   * moment they commit.
   */
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(250),
  /**
   * How long after its listening connection drops a process connects again (PostgreSQL). The
   * events committed meanwhile are read from the outbox once it listens again.
   */
  LISTEN_RECONNECT_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /**
   * How often a worker process takes webhooks' kept updates that are due again (migration
   * 0035): a try that failed, after its backoff, or one whose process stopped, after its lease.
   */
  INBOUND_JOURNAL_SWEEP_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  /** How long the process that kept a webhook's update has to store it before another may. */
  INBOUND_JOURNAL_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** SMTP server for outgoing mail (smtp:// or smtps://); without it mail stays in the local outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Omni Inbox <no-reply@localhost>'),
  /** Shows mail that has no client yet (sign-up codes) at GET /api/dev/mailbox; honoured only without SMTP_URL. */
  DEV_MAILBOX: flag.default(false),
  /** OpenID Connect issuer for Google sign-in (https://accounts.google.com); off when unset. */
  OIDC_ISSUER: z.string().url().optional(),
  /** The OAuth client id registered at the issuer. */
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** The OAuth client secret; kept on the server, used at the token endpoint only. */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /**
   * Telegram's Bot API base (`https://api.telegram.org`); a simulator's address in tests, the
   * benches and offline demos. Bots are called at `<base>/bot<token>/<method>`.
   */
  TELEGRAM_API_BASE: z.string().url().default('https://api.telegram.org'),
  /** Client ids (comma-separated) whose page visits and client logs are kept (core-inbox §9); empty: none. */
  TRACKED_CLIENT_IDS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().uuid('must be comma-separated client ids (uuids)'))),
  /** VAPID key pair for Web Push (base64url P-256); generated into DATA_DIR/secrets.json when unset. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url uncompressed P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key')
    .optional(),
  /** Who push services contact about this sender (RFC 8292 `sub`). */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
    .default('mailto:no-reply@localhost'),
});
export type ServerEnv = z.infer<typeof serverEnv>;
