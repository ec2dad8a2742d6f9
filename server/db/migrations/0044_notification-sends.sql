CREATE TABLE "notification_document_links" (
	"notification_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone,
	"digested_at" timestamp with time zone,
	CONSTRAINT "notification_document_links_message_id_document_id_pk" PRIMARY KEY("message_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "status_event_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"status_event_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"duration_ms" integer,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD COLUMN "message_id" uuid;--> statement-breakpoint
ALTER TABLE "notification_document_links" ADD CONSTRAINT "notification_document_links_notification_id_completion_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."completion_notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_event_attempts" ADD CONSTRAINT "status_event_attempts_status_event_id_status_events_id_fk" FOREIGN KEY ("status_event_id") REFERENCES "public"."status_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_document_links_document_idx" ON "notification_document_links" USING btree ("document_id","expires_at");--> statement-breakpoint
CREATE INDEX "notification_document_links_notification_idx" ON "notification_document_links" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "status_event_attempts_event_idx" ON "status_event_attempts" USING btree ("status_event_id","attempted_at");--> statement-breakpoint
-- Attempts of a notification never re-sent all belonged to its first message, whose webhook-id is its id.
UPDATE "notification_attempts" AS a SET "message_id" = a."notification_id"
FROM "completion_notifications" AS n
WHERE n."id" = a."notification_id" AND n."message_id" IS NULL;
