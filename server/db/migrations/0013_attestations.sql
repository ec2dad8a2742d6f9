CREATE TABLE "application_attestations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"answers_encrypted" text NOT NULL,
	"statement" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"snapshot_version" integer NOT NULL,
	"snapshot_sha256" text NOT NULL,
	CONSTRAINT "application_attestations_kind_check" CHECK ("application_attestations"."kind" in ('completion', 're_attestation'))
);
--> statement-breakpoint
ALTER TABLE "application_attestations" ADD CONSTRAINT "application_attestations_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_attestations_application_idx" ON "application_attestations" USING btree ("application_id","signed_at" DESC NULLS LAST);--> statement-breakpoint
-- Attestations are immutable (issue 14, decision 022): no UPDATE; DELETE only by the application's
-- cascade (the FK's cascade runs after the application row is gone).
CREATE FUNCTION application_attestations_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM provider_applications WHERE id = OLD.application_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'application_attestations is immutable' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_attestations_immutable BEFORE UPDATE OR DELETE ON application_attestations
  FOR EACH ROW EXECUTE FUNCTION application_attestations_immutable();
