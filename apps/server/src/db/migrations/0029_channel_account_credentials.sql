-- A channel account's own id on its channel (a Telegram bot's id) and its credentials, sealed
-- by the server's key (SecretBox). A bot may be connected by one business only: the id is
-- unique across clients among accounts not deleted.
ALTER TABLE "channel_accounts" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "sealed_secret" text;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_accounts_external_idx" ON "channel_accounts" USING btree ("channel","external_id") WHERE "channel_accounts"."deleted_at" is null and "channel_accounts"."external_id" is not null;