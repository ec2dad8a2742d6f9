CREATE TABLE "credential_locations" (
	"user_id" text NOT NULL,
	"row_key" text NOT NULL,
	"group_npi" text,
	"is_primary" boolean NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "credential_locations_user_id_row_key_pk" PRIMARY KEY("user_id","row_key")
);
--> statement-breakpoint
CREATE TABLE "credential_monitoring_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject_key" text NOT NULL,
	"detail" text NOT NULL,
	"found_on" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"resolved_by" text,
	"digested_at" timestamp with time zone,
	CONSTRAINT "credential_monitoring_kind_check" CHECK ("credential_monitoring_findings"."kind" in ('exclusion', 'npi_deactivated', 'license_expired'))
);
--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "facts" jsonb;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "npi" text;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "given_name" text;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "family_name" text;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "standing" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "standing_reason" text;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "standing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credential_locations" ADD CONSTRAINT "credential_locations_user_id_provider_credentials_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."provider_credentials"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_monitoring_findings" ADD CONSTRAINT "credential_monitoring_findings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_monitoring_findings" ADD CONSTRAINT "credential_monitoring_findings_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_monitoring_findings" ADD CONSTRAINT "credential_monitoring_findings_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credential_locations_row_key_idx" ON "credential_locations" USING btree ("row_key");--> statement-breakpoint
CREATE INDEX "credential_locations_group_npi_idx" ON "credential_locations" USING btree ("group_npi") WHERE "credential_locations"."group_npi" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_monitoring_open_idx" ON "credential_monitoring_findings" USING btree ("user_id","kind","subject_key") WHERE "credential_monitoring_findings"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "credential_monitoring_user_idx" ON "credential_monitoring_findings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "provider_credentials_npi_idx" ON "provider_credentials" USING btree ("npi");--> statement-breakpoint
CREATE INDEX "provider_credentials_published_idx" ON "provider_credentials" USING btree ("published_at");--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD CONSTRAINT "provider_credentials_standing_check" CHECK ("provider_credentials"."standing" in ('active', 'suspended'));--> statement-breakpoint
-- The provider cards show a suspended credential's open monitoring findings (issue 49 item 2): a
-- finding recorded or resolved is a write to what the remembered providers' pages read.
CREATE TRIGGER credential_monitoring_findings_admin_list_versions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "credential_monitoring_findings"
  FOR EACH STATEMENT EXECUTE FUNCTION admin_list_versions_bump('admin_list_version_providers');
