ALTER TABLE "provider_applications" ADD COLUMN "is_current" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "provider_applications_current_idx" ON "provider_applications" USING btree ("id") WHERE "provider_applications"."is_current";--> statement-breakpoint
-- Issue 34: the provider's current application as a flag the database keeps (server/db/schema/core.ts
-- `isCurrent`). The rule (issue 14, decisions 023 and 024): not rejected nor withdrawn; of those, non-drafts
-- before drafts, newest first, the larger id first between two created at the same instant.
CREATE FUNCTION provider_applications_mark_current(users text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One transaction at a time marks a provider's applications: a concurrent one waits here, then this
  -- function's next statement reads what the first committed (READ COMMITTED: a snapshot per statement).
  -- A row lock on the account, not an advisory lock: a bulk change of 100,000 providers needs no slot in
  -- the shared lock table, and NO KEY UPDATE leaves the foreign-key checks of other rows alone.
  PERFORM 1 FROM "user" u WHERE u.id = ANY (users) ORDER BY u.id FOR NO KEY UPDATE;
  UPDATE provider_applications a SET is_current = (a.id IS NOT DISTINCT FROM c.id)
  FROM (
    SELECT owner.user_id, cur.id FROM unnest(users) AS owner(user_id)
    LEFT JOIN LATERAL (
      SELECT p.id FROM provider_applications p
      -- As text: a fresh database runs every migration in one transaction, where the enum value
      -- 'withdrawn' (migration 0021) may not be used yet.
      WHERE p.user_id = owner.user_id AND p.application_status::text NOT IN ('rejected', 'withdrawn')
      ORDER BY (p.application_status::text = 'draft'), p.created_at DESC, p.id DESC
      LIMIT 1
    ) cur ON true
  ) c
  WHERE a.user_id = c.user_id AND a.is_current IS DISTINCT FROM (a.id IS NOT DISTINCT FROM c.id);
END;
$$;
--> statement-breakpoint
-- Statement-level, over the transition tables: the providers whose applications were inserted, deleted,
-- or changed status, owner or creation time (an update of other columns marks nothing).
CREATE FUNCTION provider_applications_current_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  users text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.user_id) INTO users FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.user_id) INTO users FROM old_rows o;
  ELSE
    SELECT array_agg(DISTINCT x.user_id) INTO users FROM (
      SELECT n.user_id, o.user_id AS old_user_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (o.application_status, o.created_at, o.user_id) IS DISTINCT FROM (n.application_status, n.created_at, n.user_id)
    ) changed CROSS JOIN LATERAL (VALUES (changed.user_id), (changed.old_user_id)) AS x(user_id);
  END IF;
  IF users IS NOT NULL THEN
    PERFORM provider_applications_mark_current(users);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER provider_applications_current_on_insert AFTER INSERT ON provider_applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION provider_applications_current_record();
--> statement-breakpoint
CREATE TRIGGER provider_applications_current_on_update AFTER UPDATE ON provider_applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION provider_applications_current_record();
--> statement-breakpoint
CREATE TRIGGER provider_applications_current_on_delete AFTER DELETE ON provider_applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION provider_applications_current_record();
--> statement-breakpoint
SELECT provider_applications_mark_current(array(SELECT DISTINCT user_id FROM provider_applications));
--> statement-breakpoint
ANALYZE provider_applications;
