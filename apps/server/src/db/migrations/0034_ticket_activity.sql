-- The list's sort keys by activity in a narrow table of their own (issue 13, "Inbox at scale").
--
-- A customer's message moves its ticket's last_message_at, and on channels that expire its
-- expires_at. Both were in indexes of tickets (the lists by activity, and 0028's EXPIRED
-- filter), so PostgreSQL could not rewrite the ticket in place: every message gave it a new
-- row version, and each of the table's 12 indexes took an entry for it, three of them GIN
-- indexes whose entries are a name's or phone's trigrams. Measured on a copy of the bench
-- database (bench/README.md, twenty-third stop), PostgreSQL's time a
-- live-chat message fell from 1.1–1.2 ms to 0.9 ms, and three in four tickets' updates became
-- HOT.
--
-- ticket_activity holds a ticket's id, client, status, assignee, last_message_at and
-- expires_at, with the lists' two indexes by activity. Statement triggers with transition
-- tables keep it: a ticket's insert adds its row, an update that changes one of those columns
-- rewrites it (the batch's set path updates its tickets in one statement, so one trigger call
-- for the batch); a ticket's delete removes it through the foreign key. tickets keeps no index
-- on either column, and leaves a fifth of each page free for the next row version.
CREATE TABLE "ticket_activity" (
	"id" bigint PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"status" text NOT NULL,
	"assignee_id" uuid,
	"last_message_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
INSERT INTO "ticket_activity" ("id", "client_id", "status", "assignee_id", "last_message_at", "expires_at")
SELECT "id", "client_id", "status", "assignee_id", "last_message_at", "expires_at" FROM "tickets" ORDER BY "id";
--> statement-breakpoint
ALTER TABLE "ticket_activity" ADD CONSTRAINT "ticket_activity_id_tickets_id_fk" FOREIGN KEY ("id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_activity" ADD CONSTRAINT "ticket_activity_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_activity_status_idx" ON "ticket_activity" USING btree ("client_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST,"expires_at");--> statement-breakpoint
CREATE INDEX "ticket_activity_assignee_idx" ON "ticket_activity" USING btree ("client_id","assignee_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
DROP INDEX "tickets_client_status_activity_idx";--> statement-breakpoint
DROP INDEX "tickets_client_assignee_activity_idx";--> statement-breakpoint
DROP INDEX "tickets_client_status_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_client_status_created_idx" ON "tickets" USING btree ("client_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "ticket_activity" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "ticket_activity"
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_activity_open() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_activity (id, client_id, status, assignee_id, last_message_at, expires_at)
  SELECT id, client_id, status, assignee_id, last_message_at, expires_at FROM opened_tickets;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_activity_open AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS opened_tickets
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_activity_open();
--> statement-breakpoint
-- Only the rows whose keys changed are rewritten: a ticket's remark or tag leaves its row alone.
CREATE OR REPLACE FUNCTION ticket_activity_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_activity a
     SET status = n.status, assignee_id = n.assignee_id,
         last_message_at = n.last_message_at, expires_at = n.expires_at
    FROM moved_tickets n
   WHERE a.id = n.id
     AND (a.status, a.assignee_id, a.last_message_at, a.expires_at)
         IS DISTINCT FROM (n.status, n.assignee_id, n.last_message_at, n.expires_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_activity_follow AFTER UPDATE ON tickets
  REFERENCING NEW TABLE AS moved_tickets
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_activity_follow();
--> statement-breakpoint
-- Room on each page for a ticket's next version (a ticket's row is about 900 bytes). Pages
-- written before this keep none until they are rewritten (VACUUM FULL tickets, at a quiet hour).
ALTER TABLE "tickets" SET (fillfactor = 80);
