import path from 'node:path';
import pino from 'pino';
import type { AppConfig } from './config';
import { type DatabaseHandle, openDatabase } from './db/client';
import { GinPendingListsKeeper } from './db/gin-pending-lists.keeper';
import { postgresSettingsAdvice } from './db/server-settings';
import { registerAuditJobs } from './modules/audit/audit.jobs';
import { registerAuditRoutes } from './modules/audit/audit.routes';
import { AuditService } from './modules/audit/audit.service';
import { registerWalletRoutes } from './modules/billing/wallet.routes';
import type { ChannelRegistry } from './modules/channels/channel-adapter';
import { createChannels } from './modules/channels/channels.module';
import type { InboundJournal } from './modules/channels/inbound-journal';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerAccountActivityJobs } from './modules/identity/account-activity.jobs';
import { registerAccountActivityRoutes } from './modules/identity/account-activity.routes';
import { AccountActivityService } from './modules/identity/account-activity.service';
import { registerAdminUserRoutes } from './modules/identity/admin-user.routes';
import { AdminUserService } from './modules/identity/admin-user.service';
import { registerAuthRoutes } from './modules/identity/auth.routes';
import { AuthService } from './modules/identity/auth.service';
import { registerClientMembershipRoutes } from './modules/identity/client-membership.routes';
import { ClientMembershipService } from './modules/identity/client-membership.service';
import { registerConsentRoutes } from './modules/identity/consent.routes';
import { ConsentService } from './modules/identity/consent.service';
import { seedDemoWorkspace } from './modules/identity/demo-seed';
import { registerFeatureAccessRoutes } from './modules/identity/feature-access.routes';
import { FeatureAccessService } from './modules/identity/feature-access.service';
import { registerIdentityJobs } from './modules/identity/identity.jobs';
import { registerMailOutboxRoutes } from './modules/identity/mail-outbox.routes';
import { MailOutboxService } from './modules/identity/mail-outbox.service';
import { MfaKeys } from './modules/identity/mfa.keys';
import { registerMfaRoutes } from './modules/identity/mfa.routes';
import { MfaService } from './modules/identity/mfa.service';
import { OidcClient } from './modules/identity/oidc.client';
import { registerOidcRoutes } from './modules/identity/oidc.routes';
import { OidcService } from './modules/identity/oidc.service';
import { registerPasswordResetRoutes } from './modules/identity/password-reset.routes';
import { PasswordResetService } from './modules/identity/password-reset.service';
import { registerPhoneResetRoutes } from './modules/identity/phone-reset.routes';
import { PhoneResetService } from './modules/identity/phone-reset.service';
import { registerSignupRoutes } from './modules/identity/signup.routes';
import { SignupService } from './modules/identity/signup.service';
import { registerUserRoutes } from './modules/identity/user.routes';
import { UserService } from './modules/identity/user.service';
import type { ConversationService } from './modules/inbox/conversation.service';
import { seedDemoInbox } from './modules/inbox/demo-inbox-seed';
import { createInbox } from './modules/inbox/inbox.module';
import { registerInboxViewRoutes } from './modules/inbox/inbox-views.routes';
import { InboxViewsService } from './modules/inbox/inbox-views.service';
import { registerTicketExportRoutes } from './modules/inbox/ticket-export.routes';
import { TicketExportService } from './modules/inbox/ticket-export.service';
import { registerTicketListRoutes } from './modules/inbox/ticket-list.routes';
import { TicketQueryService } from './modules/inbox/ticket-query.service';
import { registerTicketSearchRoutes } from './modules/inbox/ticket-search.routes';
import { TicketSearchService } from './modules/inbox/ticket-search.service';
import { SearchWordsKeeper } from './modules/inbox/ticket-search-words.keeper';
import { seedDemoLivechat } from './modules/livechat/livechat-demo.seed';
import { registerLivechatPublicRoutes } from './modules/livechat/livechat-public.routes';
import { registerLivechatWidgetRoutes } from './modules/livechat/livechat-widget.routes';
import { LivechatWidgetService } from './modules/livechat/livechat-widget.service';
import { registerMediaJobs } from './modules/media/media.jobs';
import { registerMediaRoutes } from './modules/media/media.routes';
import { MediaService } from './modules/media/media.service';
import { registerPushJobs } from './modules/notifications/push.jobs';
import { registerPushRoutes } from './modules/notifications/push.routes';
import { PushService } from './modules/notifications/push.service';
import { VapidKeys } from './modules/notifications/vapid.keys';
import { WebPushSender } from './modules/notifications/web-push.sender';
import { registerPageVisitRoutes } from './modules/tracking/page-visit.routes';
import { PageVisitService } from './modules/tracking/page-visit.service';
import { EventBus } from './platform/events/event-bus';
import { registerEventJobs } from './platform/events/events.jobs';
import { OutboxRelay } from './platform/events/outbox-relay';
import { type App, createHttpApp } from './platform/http/app';
import { AccessTokens } from './platform/http/authentication';
import { JobQueue } from './platform/jobs/job-queue';
import { registerMailJobs } from './platform/mail/mail.jobs';
import { MailService } from './platform/mail/mail-service';
import { registerRealtimeRoutes } from './platform/realtime/realtime.routes';
import { RealtimeHub } from './platform/realtime/realtime-hub';
import { LocalFileStorage } from './platform/storage/local-file-storage';

export type ServerRole = 'all' | 'web' | 'worker';

/** A running product: its parts, for the composition root and the tests. */
export interface Server {
  config: AppConfig;
  database: DatabaseHandle;
  app: App;
  queue: JobQueue;
  relay: OutboxRelay;
  /** Adds stored messages' words to the keyword search a moment later. */
  searchWords: SearchWordsKeeper;
  /** Merges the GIN indexes' pending lists every few seconds. */
  ginPendingLists: GinPendingListsKeeper;
  /** Webhooks' updates kept until they are stored. */
  inboundJournal: InboundJournal;
  hub: RealtimeHub;
  bus: EventBus;
  /** The base URL once listening (http://host:port). */
  url: string;
  demoClientId: string | null;
  /** Channel adapters by code: each channel registers its outbound half here. */
  channels: ChannelRegistry;
  /** The inbox's conversation seam: channels hand customer messages to it. */
  conversations: ConversationService;
  stop(): Promise<void>;
}

export interface ServerOptions {
  role?: ServerRole;
  /** Use this database instead of opening one (tests that share one). */
  database?: DatabaseHandle;
  listen?: boolean;
}

/**
 * The composition root: config → database (migrated) → demo seed → platform parts →
 * modules → listen. `web` serves HTTP and sockets, `worker` runs jobs, `all` does both.
 */
export async function startServer(config: AppConfig, options: ServerOptions = {}): Promise<Server> {
  const role = options.role ?? config.ROLE;
  if (role !== 'all' && config.databaseDriver === 'pglite') {
    throw new Error(
      'Separate web and worker roles need PostgreSQL (DATABASE_URL); PGlite serves one process.',
    );
  }
  const logger = pino({ level: config.LOG_LEVEL });
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      pgliteDataDir: path.join(config.dataDir, 'db'),
      listenReconnectMs: config.LISTEN_RECONNECT_MS,
    }));
  await database.migrate();
  // Advice only: a server whose settings cannot be read starts all the same.
  const settingsAdvice = await postgresSettingsAdvice(database).catch((error: unknown) => {
    logger.warn({ err: error }, 'could not read PostgreSQL settings');
    return [];
  });
  for (const advice of settingsAdvice) {
    logger.warn(
      advice,
      `PostgreSQL's ${advice.name} is ${advice.value}: ${advice.why}. Set it to ${advice.wanted} (README, "Running on PostgreSQL").`,
    );
  }
  const demoClientId = config.SEED_DEMO ? (await seedDemoWorkspace(database.db)).clientId : null;
  if (demoClientId) await seedDemoInbox(database.db, demoClientId);
  const demoLivechat = demoClientId
    ? await seedDemoLivechat(
        database.db,
        demoClientId,
        config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
      )
    : null;

  const runWorkers = role !== 'web';
  const tokens = new AccessTokens(config.jwtSecret, config.ACCESS_TOKEN_TTL_SECONDS);
  const bus = new EventBus(database, logger);
  const queue = new JobQueue(database, logger, { runWorkers, pollingIntervalSeconds: 0.5 });
  const relay = new OutboxRelay(database, queue, logger);
  const hub = new RealtimeHub(bus, logger);
  const audit = new AuditService(database.db);
  const app = await createHttpApp(config, logger, tokens, {
    onForbidden: (refusal) => audit.recordRefusal(refusal),
  });
  const media = new MediaService(
    database.db,
    new LocalFileStorage(path.join(config.dataDir, 'media')),
    config.jwtSecret,
  );
  /** The base URL once listening (http://host:port). */
  let url = '';
  const channelParts = createChannels({
    database,
    logger,
    // A web process keeps webhooks' updates and answers; the workers store them.
    journal: { leaseMs: config.INBOUND_JOURNAL_LEASE_MS, storeHere: role !== 'web' },
    serverSecret: config.jwtSecret,
    media,
    telegramApiBase: config.TELEGRAM_API_BASE,
  });
  const channels = channelParts.registry;
  const inbox = createInbox({
    db: database.db,
    app,
    hub,
    attachments: media,
    channels,
    inbound: { batchMax: config.INBOUND_BATCH_MAX, inFlight: config.INBOUND_BATCH_IN_FLIGHT },
    roomPageCacheBytes: config.ROOM_PAGE_CACHE_MB * 1024 * 1024,
  });
  const livechatWidgets = new LivechatWidgetService(database.db, media, { publicUrl: config.PUBLIC_URL });

  const mfaKeys = new MfaKeys(config.jwtSecret);
  const auth = new AuthService(database.db, tokens, config.REFRESH_TOKEN_TTL_DAYS, mfaKeys);
  registerHealthRoutes(app, database, queue);
  registerAuthRoutes(app, auth, { loginRateLimit: config.LOGIN_RATE_LIMIT });
  registerMfaRoutes(app, new MfaService(database.db, auth, mfaKeys), {
    codeRateLimit: config.LOGIN_RATE_LIMIT,
  });
  const oidc =
    config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET
      ? new OidcService(
          database.db,
          new OidcClient({
            issuer: config.OIDC_ISSUER,
            clientId: config.OIDC_CLIENT_ID,
            clientSecret: config.OIDC_CLIENT_SECRET,
          }),
          auth,
          mfaKeys,
          app.log,
        )
      : null;
  registerOidcRoutes(app, oidc, { publicUrl: config.PUBLIC_URL, rateLimit: config.LOGIN_RATE_LIMIT });
  registerUserRoutes(app, new UserService(database.db));
  registerClientMembershipRoutes(app, new ClientMembershipService(database.db, auth));
  registerFeatureAccessRoutes(app, new FeatureAccessService(database.db));
  registerConsentRoutes(app, new ConsentService(database.db));
  const mail = new MailService({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  registerAdminUserRoutes(app, new AdminUserService(database.db, mail));
  registerPasswordResetRoutes(app, new PasswordResetService(database.db, mail, config.jwtSecret));
  registerPhoneResetRoutes(app, new PhoneResetService(database.db, mail, config.jwtSecret));
  registerMailOutboxRoutes(app, new MailOutboxService(database.db));
  registerSignupRoutes(app, new SignupService(database.db, auth, config.jwtSecret), {
    devMailbox: config.DEV_MAILBOX && !config.SMTP_URL,
  });
  const accountActivity = new AccountActivityService(database.db);
  registerAccountActivityRoutes(app, accountActivity);
  registerAuditRoutes(app, audit);
  registerPageVisitRoutes(app, new PageVisitService(database.db, config.TRACKED_CLIENT_IDS));
  registerWalletRoutes(app);
  registerRealtimeRoutes(app, hub);
  registerMediaRoutes(app, media);
  const vapid = new VapidKeys(config.vapid.publicKey, config.vapid.privateKey, config.vapid.subject);
  const push = new PushService(database.db, vapid, new WebPushSender(vapid), logger, {
    allowLocalHttp: process.env.NODE_ENV !== 'production',
  });
  registerPushRoutes(app, push);
  registerLivechatWidgetRoutes(app, livechatWidgets);
  registerLivechatPublicRoutes(app, {
    db: database.db,
    bus,
    logger,
    jwtSecret: config.jwtSecret,
    publicUrl: config.PUBLIC_URL,
    media,
    widgets: livechatWidgets,
    conversations: inbox.conversations,
    demoWidgetId: demoLivechat?.widgetId ?? null,
  });
  channelParts.registerRoutes(app, {
    webhookBase: () => config.PUBLIC_URL ?? url,
    receiveInbound: (input) => inbox.conversations.receiveInbound(input),
  });
  const ticketQuery = new TicketQueryService(database.db);
  registerTicketListRoutes(app, ticketQuery);
  registerInboxViewRoutes(app, new InboxViewsService(database.db, ticketQuery));
  registerTicketSearchRoutes(app, new TicketSearchService(database.db, ticketQuery));
  registerTicketExportRoutes(app, new TicketExportService(database.db, ticketQuery));

  await bus.start();
  await queue.start();
  await registerEventJobs(database.db, queue, config.EVENT_RETENTION_HOURS);
  await registerIdentityJobs(database.db, queue, relay);
  await registerMailJobs(database.db, queue, relay, mail, logger);
  await registerAccountActivityJobs(accountActivity, queue, relay);
  await registerAuditJobs(audit, queue, relay);
  await inbox.registerJobs(queue, relay);
  await registerMediaJobs(database.db, queue);
  await registerPushJobs(push, queue, relay);
  const searchWords = new SearchWordsKeeper(database, logger);
  const ginPendingLists = new GinPendingListsKeeper(database, logger);
  if (runWorkers) {
    await relay.start(config.OUTBOX_RELAY_INTERVAL_MS);
    searchWords.start(config.SEARCH_WORDS_INTERVAL_MS);
    ginPendingLists.start(config.GIN_PENDING_LISTS_INTERVAL_MS);
    await channelParts.journal.start(config.INBOUND_JOURNAL_SWEEP_MS);
  }

  if (options.listen !== false && role !== 'worker') {
    url = await app.listen({ port: config.PORT, host: config.HOST });
    url = url.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
  } else {
    await app.ready();
  }

  return {
    config,
    database,
    app,
    queue,
    relay,
    searchWords,
    ginPendingLists,
    inboundJournal: channelParts.journal,
    hub,
    bus,
    url,
    demoClientId,
    channels,
    conversations: inbox.conversations,
    async stop() {
      await hub.close();
      await app.close();
      await channelParts.journal.stop();
      await relay.stop();
      await searchWords.stop();
      await ginPendingLists.stop();
      await queue.stop();
      await bus.stop();
      mail.close();
      if (!options.database) await database.close();
    },
  };
}
