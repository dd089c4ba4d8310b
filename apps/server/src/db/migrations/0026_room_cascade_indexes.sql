-- Indexes for the rooms' cascades. Deleting a contact or a channel account deletes its rooms, and
-- without an index on the key PostgreSQL read every room of every tenant for each one deleted
-- (600,000 rooms at a million tickets; deleting 1,112 contacts took two minutes). Issue 13,
-- "Inbox at scale".
CREATE INDEX "chat_rooms_contact_idx" ON "chat_rooms" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "chat_rooms_channel_account_idx" ON "chat_rooms" USING btree ("channel_account_id");