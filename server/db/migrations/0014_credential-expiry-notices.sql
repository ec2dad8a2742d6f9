CREATE TABLE "credential_expiry_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"row_id" uuid NOT NULL,
	"expires_on" date NOT NULL,
	"threshold" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"emailed_at" timestamp with time zone,
	"digested_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "credential_expiry_notices" ADD CONSTRAINT "credential_expiry_notices_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_expiry_notices_once_idx" ON "credential_expiry_notices" USING btree ("application_id","kind","row_id","expires_on","threshold");--> statement-breakpoint
CREATE INDEX "credential_expiry_notices_unsent_idx" ON "credential_expiry_notices" USING btree ("created_at");