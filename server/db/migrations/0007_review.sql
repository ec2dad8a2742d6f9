CREATE TABLE "application_versions" (
	"application_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"sha256" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_versions_application_id_version_pk" PRIMARY KEY("application_id","version"),
	CONSTRAINT "application_versions_version_check" CHECK ("application_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "information_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"message" text NOT NULL,
	"sections" text[] NOT NULL,
	"requested_by" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"response" text,
	"responded_at" timestamp with time zone,
	"version_after" integer
);
--> statement-breakpoint
CREATE TABLE "verification_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"item_key" text NOT NULL,
	"target" text NOT NULL,
	"primary_source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"source" text,
	"verified_at" date,
	"validator_id" text,
	"note" text,
	"waiver_reason" text,
	"position" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_items_status_check" CHECK ("verification_items"."status" in ('pending', 'verified', 'discrepancy', 'waived'))
);
--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "review_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "reviewer_id" text;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "application_versions" ADD CONSTRAINT "application_versions_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "information_requests" ADD CONSTRAINT "information_requests_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "information_requests" ADD CONSTRAINT "information_requests_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_items" ADD CONSTRAINT "verification_items_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_items" ADD CONSTRAINT "verification_items_validator_id_user_id_fk" FOREIGN KEY ("validator_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "information_requests_one_open_idx" ON "information_requests" USING btree ("application_id") WHERE "information_requests"."responded_at" is null;--> statement-breakpoint
CREATE INDEX "information_requests_application_idx" ON "information_requests" USING btree ("application_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_items_key_idx" ON "verification_items" USING btree ("application_id","item_key");--> statement-breakpoint
CREATE INDEX "verification_items_progress_idx" ON "verification_items" USING btree ("application_id","status");--> statement-breakpoint
ALTER TABLE "provider_applications" ADD CONSTRAINT "provider_applications_reviewer_id_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_applications_review_queue_idx" ON "provider_applications" USING btree ("submitted_at","id") WHERE "provider_applications"."application_status" in ('submitted', 'under_review');--> statement-breakpoint
-- Snapshots are immutable (issue 13, decision 018): no UPDATE; DELETE only by the application's cascade
-- (the FK's cascade runs after the application row is gone).
CREATE FUNCTION application_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM provider_applications WHERE id = OLD.application_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'application_versions is immutable' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_versions_immutable BEFORE UPDATE OR DELETE ON application_versions
  FOR EACH ROW EXECUTE FUNCTION application_versions_immutable();
--> statement-breakpoint
-- Applications completed before issue 13 stayed draft: they are submitted since their completion. Their
-- version 1 snapshot is taken by 'Start Review' when missing (review.service.ts).
UPDATE provider_applications a SET application_status = 'submitted', submitted_at = n.created_at
  FROM completion_notifications n
  WHERE n.application_id = a.id AND a.application_status = 'draft';
