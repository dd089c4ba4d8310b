import type { Database } from '../../db/client';
import type { OutboxRelay } from '../../platform/events/outbox-relay';
import type { App } from '../../platform/http/app';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { RealtimeHub } from '../../platform/realtime/realtime-hub';
import type { ChannelRegistry } from '../channels/channel-adapter';
import type { AttachmentStore } from './attachment-store';
import { registerCategoryRoutes } from './category.routes';
import { registerChatRoutes } from './chat.routes';
import { registerChatRoomRoutes } from './chat-room.routes';
import { ChatRoomService } from './chat-room.service';
import { registerConfigurationRoutes } from './configuration.routes';
import { ConversationService, type InboundBatching } from './conversation.service';
import { registerInboxJobs } from './inbox.jobs';
import { inboxConnectionRooms } from './inbox.policy';
import { InboxSettingsService } from './inbox-settings.service';
import { RoomPageCache } from './room-page-cache';
import { registerTicketRoutes } from './ticket.routes';
import { TicketService } from './ticket.service';

export interface InboxModule {
  /** The seam every channel adapter calls. */
  conversations: ConversationService;
  /** Registers the delivery job; call once the queue has started. */
  registerJobs(queue: JobQueue, relay: OutboxRelay): Promise<void>;
}

/**
 * The inbox core, wired: its services, routes and realtime rules now, its jobs once the
 * queue runs. The composition root hands the conversation seam on to the channels.
 */
export function createInbox(parts: {
  db: Database;
  app: App;
  hub: RealtimeHub;
  attachments: AttachmentStore;
  channels: ChannelRegistry;
  inbound: InboundBatching;
  /** Bytes of rooms' newest pages kept in memory (room-page-cache.ts); 0 keeps none. */
  roomPageCacheBytes: number;
}): InboxModule {
  const { db, app, attachments } = parts;
  const conversations = new ConversationService(db, attachments, parts.channels, parts.inbound);
  const chatRooms = new ChatRoomService(db, attachments, new RoomPageCache(parts.roomPageCacheBytes));
  const tickets = new TicketService(db);
  const settings = new InboxSettingsService(db);
  const outbound = conversations.outbound;

  registerChatRoomRoutes(app, { chatRooms, tickets, outbound });
  registerChatRoutes(app, { chatRooms, outbound });
  registerTicketRoutes(app, { tickets, chatRooms, settings });
  registerCategoryRoutes(app, settings);
  registerConfigurationRoutes(app, settings);

  parts.hub.allowRooms('ticket', (auth, id) => chatRooms.canJoinTicketRoom(auth, id));
  parts.hub.addConnectionRooms(inboxConnectionRooms);
  return {
    conversations,
    registerJobs: (queue, relay) => registerInboxJobs(queue, relay, conversations.delivery),
  };
}
