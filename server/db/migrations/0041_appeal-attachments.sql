CREATE TABLE "appeal_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"appeal_id" uuid,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"object_key" text NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "appeal_attachments_object_key_unique" UNIQUE("object_key")
);
--> statement-breakpoint
ALTER TABLE "appeal_attachments" ADD CONSTRAINT "appeal_attachments_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeal_attachments" ADD CONSTRAINT "appeal_attachments_appeal_id_committee_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."committee_appeals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeal_attachments_application_idx" ON "appeal_attachments" USING btree ("application_id","uploaded_at");