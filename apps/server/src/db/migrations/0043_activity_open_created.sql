-- The ticket table's EXPIRED filter reads only the chats it shows (issue 13, "Inbox at scale";
-- bench/README.md, thirty-eighth stop).
--
-- The table lists tickets newest created first. EXPIRED means open and past expiry, and the
-- expiry lives in ticket_activity since migration 0034 (in an index of tickets it made every
-- customer's message rewrite its ticket in all of them). So a page walked each open status
-- newest created first and fetched every ticket it passed to test its expiry: at a million
-- tickets some 1,000 tickets passed over for a page of 50 (1,872 buffers, 2.1 ms, four times
-- the table's other filters).
--
-- The activity row now keeps its ticket's creation (it never changes; the triggers copy it
-- all the same), and a small index holds the open chats newest created first with the expiry
-- after the order, tested on the index entry. Closed tickets are not in it. A customer's
-- message already gives its activity row a new version in every index (its time is in them),
-- so it writes one index entry more, into an index of the open chats only.
--
-- The activity's indexes are dropped before the copy and made again after it, so that the
-- copy does not write into them.
DROP INDEX "ticket_activity_status_idx";--> statement-breakpoint
DROP INDEX "ticket_activity_assignee_idx";--> statement-breakpoint
ALTER TABLE "ticket_activity" ADD COLUMN "created_at" timestamp with time zone;--> statement-breakpoint
UPDATE "ticket_activity" a SET "created_at" = t."created_at" FROM "tickets" t WHERE t."id" = a."id";--> statement-breakpoint
ALTER TABLE "ticket_activity" ALTER COLUMN "created_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "ticket_activity_status_idx" ON "ticket_activity" USING btree ("client_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST,"expires_at","channel");--> statement-breakpoint
CREATE INDEX "ticket_activity_assignee_idx" ON "ticket_activity" USING btree ("client_id","assignee_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST,"channel","status");--> statement-breakpoint
CREATE INDEX "ticket_activity_open_created_idx" ON "ticket_activity" USING btree ("client_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"expires_at") WHERE status in ('UNASSIGNED', 'ASSIGNED');--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_activity_open() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_activity (id, client_id, status, assignee_id, last_message_at, expires_at, channel, created_at)
  SELECT id, client_id, status, assignee_id, last_message_at, expires_at, channel, created_at FROM opened_tickets;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_activity_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_activity a
     SET status = n.status, assignee_id = n.assignee_id,
         last_message_at = n.last_message_at, expires_at = n.expires_at, channel = n.channel,
         created_at = n.created_at
    FROM moved_tickets n
   WHERE a.id = n.id
     AND (a.status, a.assignee_id, a.last_message_at, a.expires_at, a.channel, a.created_at)
         IS DISTINCT FROM (n.status, n.assignee_id, n.last_message_at, n.expires_at, n.channel, n.created_at);
  RETURN NULL;
END $$;
