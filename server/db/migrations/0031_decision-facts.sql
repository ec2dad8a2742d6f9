CREATE TABLE "decision_facts" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"decided_by" text,
	"outcome" text NOT NULL,
	"cycle" text NOT NULL,
	"completed_at" timestamp with time zone,
	"total_days" double precision,
	"waiting_review_days" double precision,
	"in_review_days" double precision,
	"waiting_provider_days" double precision,
	"waiting_decision_days" double precision NOT NULL,
	"attested_at" timestamp with time zone,
	"oldest_verified_on" date,
	CONSTRAINT "decision_facts_outcome_check" CHECK ("decision_facts"."outcome" in ('approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "decision_facts" ADD CONSTRAINT "decision_facts_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_facts" ADD CONSTRAINT "decision_facts_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decision_facts_decided_idx" ON "decision_facts" USING btree ("decided_at");--> statement-breakpoint
-- Issue 34: each decided file's figures, computed once when the decision is recorded
-- (server/db/schema/reports.ts; docs/decisions/031-reports.md). The view is the one definition: the
-- triggers below write its rows for the applications a statement decided or changed, and the backfill
-- at the end writes it for every decision recorded before.
CREATE VIEW "decision_facts_computed" AS
SELECT a.id AS application_id, a.decided_at, a.decided_by, a.application_status::text AS outcome, a.cycle,
  coalesce(att.completed_at, a.submitted_at) AS completed_at,
  extract(epoch FROM a.decided_at - coalesce(att.completed_at, a.submitted_at)) / 86400.0 AS total_days,
  extract(epoch FROM a.review_started_at - a.submitted_at) / 86400.0 AS waiting_review_days,
  CASE WHEN a.review_started_at IS NOT NULL THEN greatest(0, extract(epoch FROM
    a.decided_at - a.review_started_at - coalesce(req.wait, interval '0') - coalesce(ref.wait, interval '0')) / 86400.0)
  END AS in_review_days,
  CASE WHEN a.review_started_at IS NOT NULL THEN extract(epoch FROM coalesce(req.wait, interval '0')) / 86400.0
  END AS waiting_provider_days,
  extract(epoch FROM coalesce(ref.wait, interval '0')) / 86400.0 AS waiting_decision_days,
  fin.attested_at,
  ver.oldest_verified_on
FROM provider_applications a
-- Completion: the completion attestation (decision 022), else submitted_at (files completed before).
LEFT JOIN LATERAL (
  SELECT min(t.signed_at) AS completed_at FROM application_attestations t
  WHERE t.application_id = a.id AND t.kind = 'completion'
) att ON true
-- The attestation in force: the latest signed at or before the decision (NCQA CR 3).
LEFT JOIN LATERAL (
  SELECT max(t.signed_at) AS attested_at FROM application_attestations t
  WHERE t.application_id = a.id AND t.signed_at <= a.decided_at
) fin ON true
-- Waiting for the provider: information requests, an unanswered one until the decision.
LEFT JOIN LATERAL (
  SELECT sum(least(coalesce(q.responded_at, a.decided_at), a.decided_at) - q.requested_at) AS wait
  FROM information_requests q
  WHERE q.application_id = a.id AND q.requested_at < a.decided_at
) req ON true
-- Waiting for decision: 'Send for Decision' referrals, an open one until the decision.
LEFT JOIN LATERAL (
  SELECT sum(least(coalesce(r.closed_at, a.decided_at), a.decided_at) - r.sent_at) AS wait
  FROM decision_referrals r
  WHERE r.application_id = a.id AND r.kind = 'decision' AND r.sent_at < a.decided_at
) ref ON true
-- The oldest verification on or before the decision's UTC day (NCQA's verification time limit).
LEFT JOIN LATERAL (
  SELECT min(v.verified_at) AS oldest_verified_on FROM verification_items v
  WHERE v.application_id = a.id AND v.status = 'verified'
    AND v.verified_at <= (a.decided_at AT TIME ZONE 'UTC')::date
) ver ON true
WHERE a.application_status IN ('approved', 'rejected') AND a.decided_at IS NOT NULL;
--> statement-breakpoint
-- Rewrite the facts of `ids`: deleted, then written again for those decided now.
CREATE FUNCTION decision_facts_refresh(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM decision_facts WHERE application_id = ANY (ids);
  INSERT INTO decision_facts (application_id, decided_at, decided_by, outcome, cycle, completed_at, total_days,
    waiting_review_days, in_review_days, waiting_provider_days, waiting_decision_days, attested_at,
    oldest_verified_on)
  SELECT application_id, decided_at, decided_by, outcome, cycle, completed_at, total_days, waiting_review_days,
    in_review_days, waiting_provider_days, waiting_decision_days, attested_at, oldest_verified_on
  FROM decision_facts_computed WHERE application_id = ANY (ids);
$$;
--> statement-breakpoint
-- Statement-level, over the transition tables: one set-based refresh per statement, and only for the
-- rows whose status, decision time, decider or cycle changed (the monthly screening's update of every
-- approved application's exclusion columns refreshes nothing).
CREATE FUNCTION decision_facts_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.id) INTO changed FROM new_rows n
    WHERE n.application_status IN ('approved', 'rejected');
  ELSE
    SELECT array_agg(n.id) INTO changed FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (o.application_status, o.decided_at, o.decided_by, o.cycle)
      IS DISTINCT FROM (n.application_status, n.decided_at, n.decided_by, n.cycle);
  END IF;
  IF changed IS NOT NULL THEN
    PERFORM decision_facts_refresh(changed);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER decision_facts_on_insert AFTER INSERT ON provider_applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION decision_facts_record();
--> statement-breakpoint
CREATE TRIGGER decision_facts_on_update AFTER UPDATE ON provider_applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION decision_facts_record();
--> statement-breakpoint
INSERT INTO decision_facts (application_id, decided_at, decided_by, outcome, cycle, completed_at, total_days,
  waiting_review_days, in_review_days, waiting_provider_days, waiting_decision_days, attested_at, oldest_verified_on)
SELECT application_id, decided_at, decided_by, outcome, cycle, completed_at, total_days, waiting_review_days,
  in_review_days, waiting_provider_days, waiting_decision_days, attested_at, oldest_verified_on
FROM decision_facts_computed;
--> statement-breakpoint
-- The planner's statistics of the filled table (without them it expects a few hundred rows and reads the
-- reports' ranges by bitmap).
ANALYZE decision_facts;
