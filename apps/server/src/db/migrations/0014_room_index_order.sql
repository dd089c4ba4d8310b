-- The room and contact indexes were built descending with NULLS LAST, which a plain
-- `ORDER BY id DESC` (NULLS FIRST) cannot use: at a million tickets the newest page of a
-- long room walked the primary key backwards (0.9 s). Plain keys serve both directions.
DROP INDEX "messages_room_idx";--> statement-breakpoint
DROP INDEX "tickets_room_idx";--> statement-breakpoint
DROP INDEX "tickets_contact_idx";--> statement-breakpoint
CREATE INDEX "messages_room_idx" ON "messages" USING btree ("room_id","id");--> statement-breakpoint
CREATE INDEX "tickets_room_idx" ON "tickets" USING btree ("room_id","id");--> statement-breakpoint
CREATE INDEX "tickets_contact_idx" ON "tickets" USING btree ("contact_id","created_at","id");