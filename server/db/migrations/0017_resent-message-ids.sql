ALTER TABLE "completion_notifications" ADD COLUMN "message_id" uuid;--> statement-breakpoint
ALTER TABLE "status_events" ADD COLUMN "message_id" uuid;