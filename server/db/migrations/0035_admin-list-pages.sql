-- Issue 35 goal 4: the admin lists' pages, not only their totals, are remembered between requests
-- (server/admin/list-cache.ts). A page may be served from memory only at a version that every write
-- it counts has committed at, so:
-- 1. A write takes its list's advisory lock in shared mode (transaction level: held until it commits
--    or rolls back) before it bumps the version. Writers never wait on each other (shared locks do not
--    conflict); they wait only for the microseconds in which a reader holds the lock (2.).
-- 2. admin_list_version(list) reads the version and says whether it is settled: whether, at that
--    instant, no transaction that bumped it was still open (a non-blocking exclusive try of the same
--    lock, released at once). A page read after a settled version holds every write up to it; one read
--    after an unsettled version is served but never remembered.
-- Advisory lock keys: (35, hashtext(sequence name)); the two-key space is apart from the one-key space.
CREATE OR REPLACE FUNCTION admin_list_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  list_sequence text;
BEGIN
  FOREACH list_sequence IN ARRAY TG_ARGV LOOP
    PERFORM pg_advisory_xact_lock_shared(35, hashtext(list_sequence));
    PERFORM nextval(list_sequence::regclass);
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Static SQL (no EXECUTE), so PL/pgSQL plans each read once per connection: it runs on every request.
CREATE FUNCTION admin_list_version(list_sequence text, OUT version text, OUT settled boolean)
LANGUAGE plpgsql AS $$
BEGIN
  settled := pg_try_advisory_lock(35, hashtext(list_sequence));
  version := CASE list_sequence
    WHEN 'admin_list_version_providers' THEN
      (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM admin_list_version_providers)
    WHEN 'admin_list_version_review_queue' THEN
      (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM admin_list_version_review_queue)
    WHEN 'admin_list_version_expiring' THEN
      (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM admin_list_version_expiring)
  END::text;
  IF settled THEN
    PERFORM pg_advisory_unlock(35, hashtext(list_sequence));
  END IF;
  IF version IS NULL THEN
    RAISE EXCEPTION 'admin_list_version: no list has the sequence %', list_sequence;
  END IF;
END;
$$;
--> statement-breakpoint
-- Every table a remembered page reads bumps its list (server/admin/list-cache.test.ts checks the
-- pages' plans against these triggers). Added: the cards' roles, credentials and documents; the review
-- queue's names, open requests, checklist counts and attestations; the 'Expiring' rows' providers.
DROP TRIGGER profiles_admin_list_versions ON "profiles";
--> statement-breakpoint
CREATE TRIGGER profiles_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers', 'admin_list_version_review_queue', 'admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER user_roles_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_roles"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers');
--> statement-breakpoint
CREATE TRIGGER provider_credentials_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "provider_credentials"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers');
--> statement-breakpoint
CREATE TRIGGER documents_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "documents"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers');
--> statement-breakpoint
CREATE TRIGGER user_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_review_queue');
--> statement-breakpoint
CREATE TRIGGER information_requests_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "information_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_review_queue');
--> statement-breakpoint
CREATE TRIGGER verification_items_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "verification_items"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_review_queue');
--> statement-breakpoint
CREATE TRIGGER application_attestations_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "application_attestations"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_review_queue');
