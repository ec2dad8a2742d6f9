-- Issue 35 goal 4: a version per admin list whose totals the server remembers between requests
-- (server/admin/list-totals.ts). Every INSERT, UPDATE, DELETE or TRUNCATE of a table a list's total
-- reads bumps the list's sequence (statement-level: one nextval per statement, whatever its row count;
-- a sequence takes no row lock, so concurrent writers never wait on each other here). A total counted
-- at an older version is counted again.
CREATE SEQUENCE "admin_list_version_providers";--> statement-breakpoint
CREATE SEQUENCE "admin_list_version_review_queue";--> statement-breakpoint
CREATE SEQUENCE "admin_list_version_expiring";--> statement-breakpoint
CREATE FUNCTION admin_list_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  list_sequence text;
BEGIN
  FOREACH list_sequence IN ARRAY TG_ARGV LOOP
    PERFORM nextval(list_sequence::regclass);
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- 'Users & Applications' (and its search: names and emails, NPIs, license numbers, whose applications).
CREATE TRIGGER profiles_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers');
--> statement-breakpoint
-- Applications: the provider search (owners), the review queue (status, reviewer) and the 'Expiring' tab
-- (is_current, kept by migration 0032's triggers, which update this table and so bump it too).
CREATE TRIGGER provider_applications_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "provider_applications"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers', 'admin_list_version_review_queue', 'admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER credential_updates_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "credential_updates"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_review_queue');
--> statement-breakpoint
-- The dated credentials of the 'Expiring' tab (server/credentials/expiring-credentials.ts), two of which
-- the provider search also reads (the NPI, the license numbers).
CREATE TRIGGER personal_information_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "personal_information"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers', 'admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER professional_licenses_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "professional_licenses"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers', 'admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER malpractice_insurance_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "malpractice_insurance"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER certifications_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "certifications"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER vaccinations_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "vaccinations"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER payors_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "payors"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_expiring');
--> statement-breakpoint
CREATE TRIGGER hospital_affiliations_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "hospital_affiliations"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_expiring');
