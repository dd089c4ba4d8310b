CREATE TABLE "page_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid,
	"page_name" text NOT NULL,
	"data_1" text,
	"data_2" text,
	"data_3" text,
	"data_4" text,
	"data_5" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"expired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signup_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"referral_code" text,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"continue_token_hash" text,
	"ip" text,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_email_unique";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "business_fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "business_type" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "business_mode" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "waba_phone" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "subscription_package" text DEFAULT 'FREE_TRIAL' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "referral_code" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "shared_login_user_id" uuid;--> statement-breakpoint
ALTER TABLE "page_visits" ADD CONSTRAINT "page_visits_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "page_visits_client_created_idx" ON "page_visits" USING btree ("client_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_unique" ON "push_subscriptions" USING btree ("client_id","endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("client_id","user_id");--> statement-breakpoint
CREATE INDEX "signup_requests_email_idx" ON "signup_requests" USING btree (lower("email"),"created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_shared_login_user_id_users_id_fk" FOREIGN KEY ("shared_login_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_waba_phone_unique" ON "clients" USING btree ("waba_phone") WHERE waba_phone is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_email_unique" ON "users" USING btree (lower("email")) WHERE deleted_at is null and shared_login_user_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_client_email_unique" ON "users" USING btree ("client_id",lower("email")) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "users_shared_login_idx" ON "users" USING btree ("shared_login_user_id");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON page_visits, push_subscriptions TO app_tenant;
--> statement-breakpoint
ALTER TABLE page_visits ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON page_visits
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE push_subscriptions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON push_subscriptions
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
-- A sign-up belongs to no client yet: no tenant may see it (the service reads it as the owner role).
ALTER TABLE signup_requests ENABLE ROW LEVEL SECURITY;
