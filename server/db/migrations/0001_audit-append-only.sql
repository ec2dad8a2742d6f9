-- The audit log is append-only (HIPAA 164.312(b) audit controls; issues 6 and 7): rows are inserted,
-- never changed or removed, whoever connects (the application role included). Retention, if a policy
-- ever asks for it, is done by an operator who drops this trigger on purpose.
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
-- Statement level, so even an UPDATE or DELETE that matches no row is refused.
CREATE TRIGGER audit_log_append_only
  BEFORE UPDATE OR DELETE OR TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
