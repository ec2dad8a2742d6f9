ALTER TYPE "public"."application_status" ADD VALUE 'withdrawn';--> statement-breakpoint
CREATE TABLE "credential_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"sections" text[] NOT NULL,
	"version" integer NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text
);
--> statement-breakpoint
CREATE TABLE "provider_credentials" (
	"user_id" text PRIMARY KEY NOT NULL,
	"application_id" uuid NOT NULL,
	"credentialed_at" timestamp with time zone NOT NULL,
	"approved_at" timestamp with time zone NOT NULL,
	"ends_on" date NOT NULL,
	"ended_on" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "section_confirmations" (
	"application_id" uuid NOT NULL,
	"section_key" text NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "section_confirmations_application_id_section_key_pk" PRIMARY KEY("application_id","section_key")
);
--> statement-breakpoint
ALTER TABLE "verification_items" DROP CONSTRAINT "verification_items_status_check";--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "cycle" text DEFAULT 'initial' NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "withdrawn_by" text;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "withdrawal_reason" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "verified_values" jsonb;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "row_key" uuid;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "verified_version" integer;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "verification_items" ADD COLUMN "carried_forward_from" uuid;--> statement-breakpoint
ALTER TABLE "certifications" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "cme" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "education" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "malpractice_insurance" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "payors" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "peer_references" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "personal_information" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "professional_licenses" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "vaccinations" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "work_history" ADD COLUMN "row_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "work_history" ADD COLUMN "gap_explanation" text;--> statement-breakpoint
ALTER TABLE "credential_updates" ADD CONSTRAINT "credential_updates_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_updates" ADD CONSTRAINT "credential_updates_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD CONSTRAINT "provider_credentials_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD CONSTRAINT "provider_credentials_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_confirmations" ADD CONSTRAINT "section_confirmations_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_updates_one_open_idx" ON "credential_updates" USING btree ("application_id") WHERE "credential_updates"."reviewed_at" is null;--> statement-breakpoint
CREATE INDEX "credential_updates_queue_idx" ON "credential_updates" USING btree ("opened_at","id") WHERE "credential_updates"."reviewed_at" is null;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD CONSTRAINT "provider_applications_withdrawn_by_user_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD CONSTRAINT "provider_applications_cycle_check" CHECK ("provider_applications"."cycle" in ('initial', 'recredentialing'));--> statement-breakpoint
ALTER TABLE "verification_items" ADD CONSTRAINT "verification_items_status_check" CHECK ("verification_items"."status" in ('pending', 'verified', 'discrepancy', 'waived', 'needs_reverification'));--> statement-breakpoint
-- Issue 29: existing data brought along. A cycle opened by copy after an approval is a recredentialing.
UPDATE "provider_applications" a SET "cycle" = 'recredentialing'
  WHERE a."copied_from_id" IS NOT NULL AND EXISTS (
    SELECT 1 FROM "provider_applications" p
    WHERE p."user_id" = a."user_id" AND p."application_status" = 'approved' AND p."decided_at" < a."created_at");
--> statement-breakpoint
-- Each provider's current credential from their decided applications: granted by the first approval,
-- running 36 months from the latest (NCQA CR 4, the day clamped to the month's end as addMonths does),
-- ended by a recredentialing denial decided after it (domain/credentials/provider-credential.ts).
INSERT INTO "provider_credentials" ("user_id", "application_id", "credentialed_at", "approved_at", "ends_on", "ended_on")
  SELECT l."user_id", l."id", f."first_at", l."decided_at",
    (((l."decided_at" AT TIME ZONE 'UTC')::date) + interval '36 months')::date,
    (SELECT min((r."decided_at" AT TIME ZONE 'UTC')::date) FROM "provider_applications" r
      WHERE r."user_id" = l."user_id" AND r."application_status" = 'rejected' AND r."decided_at" > l."decided_at")
  FROM (
    SELECT DISTINCT ON ("user_id") "id", "user_id", "decided_at" FROM "provider_applications"
    WHERE "application_status" = 'approved' AND "decided_at" IS NOT NULL
    ORDER BY "user_id", "decided_at" DESC, "id" DESC
  ) l
  JOIN (
    SELECT "user_id", min("decided_at") AS "first_at" FROM "provider_applications"
    WHERE "application_status" = 'approved' AND "decided_at" IS NOT NULL GROUP BY "user_id"
  ) f ON f."user_id" = l."user_id";
