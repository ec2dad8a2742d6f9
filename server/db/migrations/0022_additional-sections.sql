CREATE TYPE "public"."accepting_new_patients" AS ENUM('yes', 'existing_only', 'no');--> statement-breakpoint
CREATE TYPE "public"."admitting_arrangement" AS ENUM('covering_physician', 'hospitalist_group');--> statement-breakpoint
CREATE TYPE "public"."claim_status" AS ENUM('open', 'closed', 'dismissed', 'settled', 'judgment');--> statement-breakpoint
CREATE TYPE "public"."privilege_status" AS ENUM('active', 'courtesy', 'provisional', 'none');--> statement-breakpoint
CREATE TYPE "public"."specialty_rank" AS ENUM('primary', 'secondary');--> statement-breakpoint
CREATE TYPE "public"."training_type" AS ENUM('internship', 'residency', 'fellowship');--> statement-breakpoint
CREATE TYPE "public"."yes_no" AS ENUM('yes', 'no');--> statement-breakpoint
CREATE TABLE "hospital_affiliations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"row_key" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"privilege_status" "privilege_status" DEFAULT 'active' NOT NULL,
	"facility_name" text,
	"city" text,
	"state" text,
	"department" text,
	"start_date" date,
	"end_date" date,
	"admitting_arrangement" "admitting_arrangement",
	"arrangement_name" text
);
--> statement-breakpoint
CREATE TABLE "malpractice_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"row_key" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"no_claims" boolean DEFAULT false NOT NULL,
	"incident_date" date,
	"claim_date" date,
	"status" "claim_status",
	"amount_paid" numeric(12, 2),
	"insurer" text,
	"description" text,
	CONSTRAINT "malpractice_claims_amount_paid_check" CHECK ("malpractice_claims"."amount_paid" >= 0)
);
--> statement-breakpoint
CREATE TABLE "practice_locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"row_key" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"practice_name" text NOT NULL,
	"group_npi" text,
	"address_line1" text,
	"address_line2" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"phone" text,
	"fax" text,
	"email" text,
	"is_primary_location" boolean DEFAULT false NOT NULL,
	"accepting_new_patients" "accepting_new_patients",
	"languages_spoken" text,
	"office_hours" text,
	"accessibility_notes" text
);
--> statement-breakpoint
CREATE TABLE "specialties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"row_key" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"specialty_rank" "specialty_rank" DEFAULT 'primary' NOT NULL,
	"taxonomy_code" text NOT NULL,
	"classification" text,
	"specialization" text,
	"board_certification_id" uuid,
	CONSTRAINT "specialties_taxonomy_code_check" CHECK ("specialties"."taxonomy_code" ~ '^[0-9]{3}[0-9A-Z]{6}X$')
);
--> statement-breakpoint
CREATE TABLE "training" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"row_key" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"no_training" boolean DEFAULT false NOT NULL,
	"training_type" "training_type",
	"program_name" text,
	"institution_name" text,
	"specialty" text,
	"start_date" date,
	"end_date" date,
	"completed" "yes_no",
	"not_completed_reason" text
);
--> statement-breakpoint
ALTER TABLE "hospital_affiliations" ADD CONSTRAINT "hospital_affiliations_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "malpractice_claims" ADD CONSTRAINT "malpractice_claims_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_locations" ADD CONSTRAINT "practice_locations_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specialties" ADD CONSTRAINT "specialties_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specialties" ADD CONSTRAINT "specialties_board_certification_id_certifications_id_fk" FOREIGN KEY ("board_certification_id") REFERENCES "public"."certifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training" ADD CONSTRAINT "training_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hospital_affiliations_application_position_idx" ON "hospital_affiliations" USING btree ("application_id","position");--> statement-breakpoint
CREATE INDEX "hospital_affiliations_end_idx" ON "hospital_affiliations" USING btree ("end_date","id","application_id");--> statement-breakpoint
CREATE INDEX "malpractice_claims_application_position_idx" ON "malpractice_claims" USING btree ("application_id","position");--> statement-breakpoint
CREATE INDEX "practice_locations_application_position_idx" ON "practice_locations" USING btree ("application_id","position");--> statement-breakpoint
CREATE INDEX "specialties_application_position_idx" ON "specialties" USING btree ("application_id","position");--> statement-breakpoint
CREATE INDEX "specialties_board_certification_idx" ON "specialties" USING btree ("board_certification_id");--> statement-breakpoint
CREATE INDEX "training_application_position_idx" ON "training" USING btree ("application_id","position");