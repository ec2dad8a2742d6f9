ALTER TABLE "api_clients" ADD COLUMN "previous_secret_hash" text;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;