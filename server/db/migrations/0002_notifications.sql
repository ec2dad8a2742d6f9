CREATE TYPE "public"."completion_status" AS ENUM('pending', 'delivered', 'failed', 'undelivered');--> statement-breakpoint
CREATE TABLE "completion_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" "completion_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_id" uuid,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "completion_notifications_application_id_unique" UNIQUE("application_id")
);
--> statement-breakpoint
CREATE TABLE "notification_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"duration_ms" integer,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "completion_notifications" ADD CONSTRAINT "completion_notifications_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "completion_notifications" ADD CONSTRAINT "completion_notifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_notification_id_completion_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."completion_notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "completion_notifications_due_idx" ON "completion_notifications" USING btree ("next_attempt_at") WHERE "completion_notifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "completion_notifications_created_idx" ON "completion_notifications" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_attempts_notification_idx" ON "notification_attempts" USING btree ("notification_id","attempted_at");