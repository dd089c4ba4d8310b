-- Lists filtered by channel or by agent read only the tickets they show (issue 13, "Inbox at
-- scale"; bench/README.md, thirty-first stop).
--
-- By channel: an inbox page walks ticket_activity's index in the page's order, and joined
-- every ticket it passed to read its channel from tickets. With 12 channels a page of 50
-- joined some 300 tickets to keep 50 (3,193 buffers, 3.3 ms at a million tickets). The
-- channel now sits in the activity row and at the end of both its indexes, where the walk
-- tests it on the index entry. A ticket's channel never changes; the triggers copy it all
-- the same.
--
-- By agent: nothing was ordered by assignee. The table filtered by one agent walked every
-- ticket newest first to find theirs (14,804 passed over, 34 ms), and the inbox joined every
-- open chat (13,579 tickets, 80 ms). The table gets an index by agent and creation; the
-- activity's assignee index also holds the status, so a page of one agent's chats in any
-- status reads it there. An assignee changes only when a chat is handed over, so a
-- customer's message still rewrites its ticket in place (migration 0034).
--
-- The activity's indexes are dropped before the copy and made again after it, so that the
-- copy does not write into them.
DROP INDEX "ticket_activity_status_idx";--> statement-breakpoint
DROP INDEX "ticket_activity_assignee_idx";--> statement-breakpoint
ALTER TABLE "ticket_activity" ADD COLUMN "channel" text;--> statement-breakpoint
UPDATE "ticket_activity" a SET "channel" = t."channel" FROM "tickets" t WHERE t."id" = a."id";--> statement-breakpoint
ALTER TABLE "ticket_activity" ALTER COLUMN "channel" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "ticket_activity_status_idx" ON "ticket_activity" USING btree ("client_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST,"expires_at","channel");--> statement-breakpoint
CREATE INDEX "ticket_activity_assignee_idx" ON "ticket_activity" USING btree ("client_id","assignee_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST,"channel","status");--> statement-breakpoint
CREATE INDEX "tickets_client_assignee_created_idx" ON "tickets" USING btree ("client_id","assignee_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_activity_open() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_activity (id, client_id, status, assignee_id, last_message_at, expires_at, channel)
  SELECT id, client_id, status, assignee_id, last_message_at, expires_at, channel FROM opened_tickets;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_activity_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_activity a
     SET status = n.status, assignee_id = n.assignee_id,
         last_message_at = n.last_message_at, expires_at = n.expires_at, channel = n.channel
    FROM moved_tickets n
   WHERE a.id = n.id
     AND (a.status, a.assignee_id, a.last_message_at, a.expires_at, a.channel)
         IS DISTINCT FROM (n.status, n.assignee_id, n.last_message_at, n.expires_at, n.channel);
  RETURN NULL;
END $$;
