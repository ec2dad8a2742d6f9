ALTER TABLE "provider_applications" ADD COLUMN "last_attested_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "provider_applications_open_age_idx" ON "provider_applications" USING btree (coalesce("last_attested_at", "submitted_at"),"id") WHERE "provider_applications"."application_status" in ('submitted', 'under_review');--> statement-breakpoint
-- Issue 34: each application's latest attestation, written with every attestation signed (statement-level:
-- one update per statement however many rows it signed). Attestations are never updated nor deleted but
-- with their application (migration 0013), so inserts are the only change.
CREATE FUNCTION application_attestations_mark_latest() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE provider_applications a SET last_attested_at = s.signed_at
  FROM (SELECT n.application_id, max(n.signed_at) AS signed_at FROM new_rows n GROUP BY n.application_id) s
  WHERE a.id = s.application_id AND (a.last_attested_at IS NULL OR a.last_attested_at < s.signed_at);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER application_attestations_mark_latest AFTER INSERT ON application_attestations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION application_attestations_mark_latest();
--> statement-breakpoint
UPDATE provider_applications a SET last_attested_at = s.signed_at
FROM (SELECT t.application_id, max(t.signed_at) AS signed_at FROM application_attestations t GROUP BY t.application_id) s
WHERE a.id = s.application_id;
--> statement-breakpoint
ANALYZE provider_applications;
