-- The shapes of the busiest pages' JSON (issue 13, "Inbox at scale"): a ticket of the lists
-- (`TicketSummary`) and a message of a room (`MessageView`), as composite types whose field
-- names are the JSON keys. The pages write each row as `row_to_json(row(...)::type)`
-- (json-views.ts) instead of `json_build_object`, which looks up the type and output of each
-- of its arguments again on every row: profiled at a million tickets, json_build_object was
-- half of PostgreSQL's time on a room page and a third on a list page, and the same rows
-- written through these types cost 20-40% less. The JSON is also shorter: no spaces
-- around keys and values.
--
-- The types are the API's shapes, not storage: json-views.test.ts holds each page to the
-- presenters (`presentTicket`, `presentMessage`) row for row.

create type ticket_customer_view as (
  "contactId" uuid,
  "name" text,
  "phone" text,
  "email" text
);
--> statement-breakpoint
create type ticket_summary_view as (
  "id" bigint,
  "roomId" uuid,
  "channelAccountId" uuid,
  "mediaPlatform" text,
  "customer" ticket_customer_view,
  "status" text,
  "expired" boolean,
  "expiresAt" text,
  "priority" smallint,
  "tags" text[],
  "categoryId" uuid,
  "remarks" text,
  "subject" text,
  "groupId" uuid,
  "assigneeId" uuid,
  "submitterId" uuid,
  "closedBy" uuid,
  "createdAt" text,
  "closedAt" text,
  "lastMessageAt" text,
  "lastMessagePreview" text,
  "unreadCount" integer
);
--> statement-breakpoint
create type message_sender_view as (
  "type" text,
  "id" text,
  "name" text
);
--> statement-breakpoint
create type message_view as (
  "id" bigint,
  "roomId" uuid,
  "ticketId" bigint,
  "kind" text,
  "direction" text,
  "sender" message_sender_view,
  "text" text,
  "attachments" json,
  "quoted" json,
  "status" text,
  "failureReason" text,
  "clientMessageId" text,
  "createdAt" text
);
