CREATE TABLE "provider_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"due_on" date NOT NULL,
	"threshold" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"emailed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "copied_from_id" uuid;--> statement-breakpoint
ALTER TABLE "provider_reminders" ADD CONSTRAINT "provider_reminders_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_reminders_once_idx" ON "provider_reminders" USING btree ("application_id","kind","due_on","threshold");--> statement-breakpoint
CREATE INDEX "provider_reminders_unsent_idx" ON "provider_reminders" USING btree ("created_at") WHERE "provider_reminders"."emailed_at" is null;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD CONSTRAINT "provider_applications_copied_from_id_provider_applications_id_fk" FOREIGN KEY ("copied_from_id") REFERENCES "public"."provider_applications"("id") ON DELETE set null ON UPDATE no action;