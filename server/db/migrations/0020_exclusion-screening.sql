CREATE TABLE "exclusion_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "exclusion_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"import_id" integer NOT NULL,
	"staged" boolean DEFAULT true NOT NULL,
	"line" integer NOT NULL,
	"last_name" text NOT NULL,
	"first_name" text NOT NULL,
	"middle_name" text NOT NULL,
	"business_name" text NOT NULL,
	"npi" text,
	"dob" date,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"license_number" text NOT NULL,
	"provider_type" text NOT NULL,
	"exclusion_type" text NOT NULL,
	"exclusion_date" date,
	"reinstatement_date" date,
	"waiver_date" date,
	"waiver_state" text NOT NULL,
	"fields" jsonb NOT NULL,
	"name_key" text NOT NULL,
	"entry_key" text NOT NULL,
	"row_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exclusion_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "exclusion_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'staged' NOT NULL,
	"file_name" text NOT NULL,
	"encoding" text NOT NULL,
	"row_count" integer NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"skipped" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"staged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"staged_by" text,
	"applied_at" timestamp with time zone,
	"applied_by" text,
	"rows_before" integer,
	"rows_after" integer,
	"changed_rows" integer,
	"confirm_reason" text
);
--> statement-breakpoint
CREATE TABLE "screening_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"source" text NOT NULL,
	"row_hash" text NOT NULL,
	"entry_key" text NOT NULL,
	"entry" jsonb NOT NULL,
	"strength" text NOT NULL,
	"matched_on" text NOT NULL,
	"status" text NOT NULL,
	"pending_change" text,
	"found_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"reason" text,
	CONSTRAINT "screening_findings_application_row_key" UNIQUE("application_id","row_hash")
);
--> statement-breakpoint
ALTER TABLE "exclusion_entries" ADD CONSTRAINT "exclusion_entries_import_id_exclusion_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."exclusion_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exclusion_imports" ADD CONSTRAINT "exclusion_imports_staged_by_user_id_fk" FOREIGN KEY ("staged_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exclusion_imports" ADD CONSTRAINT "exclusion_imports_applied_by_user_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_findings" ADD CONSTRAINT "screening_findings_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_findings" ADD CONSTRAINT "screening_findings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_findings" ADD CONSTRAINT "screening_findings_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exclusion_entries_npi_idx" ON "exclusion_entries" USING btree ("npi") WHERE not "exclusion_entries"."staged";--> statement-breakpoint
CREATE INDEX "exclusion_entries_name_idx" ON "exclusion_entries" USING btree ("name_key") WHERE not "exclusion_entries"."staged";--> statement-breakpoint
CREATE INDEX "exclusion_entries_entry_idx" ON "exclusion_entries" USING btree ("source","entry_key");--> statement-breakpoint
CREATE INDEX "exclusion_entries_import_idx" ON "exclusion_entries" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "exclusion_imports_source_idx" ON "exclusion_imports" USING btree ("source","status","applied_at");--> statement-breakpoint
CREATE INDEX "screening_findings_open_idx" ON "screening_findings" USING btree ("found_at") WHERE "screening_findings"."status" = 'open' or "screening_findings"."pending_change" is not null;--> statement-breakpoint
CREATE INDEX "screening_findings_user_idx" ON "screening_findings" USING btree ("user_id","row_hash");--> statement-breakpoint
-- Issue 30: the OIG LEIE list imported before this migration becomes the 'oig_leie' source's applied
-- list (its latest import and every row), with the entry key of domain/screening/exclusion-formats.ts
-- (the same folding for the ASCII the LEIE is written in) and the row hash of server/screening/entry-identity.ts.
INSERT INTO "exclusion_imports" ("source", "kind", "status", "file_name", "encoding", "row_count", "staged_at", "staged_by", "applied_at", "applied_by", "rows_after")
SELECT 'oig_leie', 'full', 'applied', "file_name", 'utf-8', "row_count", "imported_at", "imported_by", "imported_at", "imported_by", "row_count"
FROM "leie_imports" ORDER BY "imported_at" DESC LIMIT 1;--> statement-breakpoint
INSERT INTO "exclusion_entries" ("source", "import_id", "staged", "line", "last_name", "first_name", "middle_name", "business_name", "npi", "dob", "address", "city", "state", "zip", "license_number", "provider_type", "exclusion_type", "exclusion_date", "reinstatement_date", "waiver_date", "waiver_state", "fields", "name_key", "entry_key", "row_hash")
SELECT 'oig_leie', i.id, false, (row_number() OVER (ORDER BY l.id))::int + 1, l.last_name, l.first_name, l.mid_name, l.bus_name, l.npi, l.dob, l.address, l.city, l.state, l.zip, '', concat_ws(' / ', nullif(trim(l.general), ''), nullif(trim(l.specialty), '')), l.excl_type, l.excl_date, l.rein_date, l.waiver_date, l.waiver_state,
  jsonb_build_object('LASTNAME', l.last_name, 'FIRSTNAME', l.first_name, 'MIDNAME', l.mid_name, 'BUSNAME', l.bus_name, 'GENERAL', l.general, 'SPECIALTY', l.specialty, 'UPIN', l.upin, 'NPI', coalesce(l.npi, ''), 'DOB', coalesce(to_char(l.dob, 'YYYYMMDD'), ''), 'ADDRESS', l.address, 'CITY', l.city, 'STATE', l.state, 'ZIP', l.zip, 'EXCLTYPE', l.excl_type, 'EXCLDATE', coalesce(to_char(l.excl_date, 'YYYYMMDD'), ''), 'REINDATE', coalesce(to_char(l.rein_date, 'YYYYMMDD'), ''), 'WAIVERDATE', coalesce(to_char(l.waiver_date, 'YYYYMMDD'), ''), 'WVRSTATE', l.waiver_state),
  l.name_key, k.entry_key, encode(sha256(convert_to(concat_ws('|', upper(k.entry_key), upper(trim(coalesce(l.address, ''))), upper(trim(coalesce(l.city, ''))), upper(trim(coalesce(l.state, ''))), upper(trim(coalesce(l.zip, ''))), '', upper(concat_ws(' / ', nullif(trim(l.general), ''), nullif(trim(l.specialty), ''))), coalesce(to_char(l.waiver_date, 'YYYY-MM-DD'), ''), upper(trim(coalesce(l.waiver_state, '')))), 'UTF8')), 'hex')
FROM "leie_exclusions" l
CROSS JOIN (SELECT "id" FROM "exclusion_imports" WHERE "source" = 'oig_leie' ORDER BY "id" DESC LIMIT 1) i
CROSS JOIN LATERAL (SELECT concat_ws('|', 'oig_leie', regexp_replace(upper(coalesce(l.last_name, '')), '[^A-Z0-9]', '', 'g'), regexp_replace(upper(coalesce(l.first_name, '')), '[^A-Z0-9]', '', 'g'), regexp_replace(upper(coalesce(l.mid_name, '')), '[^A-Z0-9]', '', 'g'), regexp_replace(upper(coalesce(l.bus_name, '')), '[^A-Z0-9]', '', 'g'), regexp_replace(upper(coalesce(l.npi, '')), '[^A-Z0-9]', '', 'g'), coalesce(to_char(l.dob, 'YYYYMMDD'), ''), regexp_replace(upper(coalesce(l.excl_type, '')), '[^A-Z0-9]', '', 'g'), coalesce(to_char(l.excl_date, 'YYYYMMDD'), '')) AS entry_key) k;--> statement-breakpoint
DROP TABLE "leie_exclusions" CASCADE;--> statement-breakpoint
DROP TABLE "leie_imports" CASCADE;
