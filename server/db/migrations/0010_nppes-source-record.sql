ALTER TABLE "verification_items" ADD COLUMN "source_record" jsonb;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "source_record_at" timestamp with time zone;