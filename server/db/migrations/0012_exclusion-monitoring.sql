ALTER TABLE "provider_applications" ADD COLUMN "exclusion_match" text;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "exclusion_checked_at" timestamp with time zone;