CREATE TABLE "leie_exclusions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leie_exclusions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"last_name" text NOT NULL,
	"first_name" text NOT NULL,
	"mid_name" text NOT NULL,
	"bus_name" text NOT NULL,
	"general" text NOT NULL,
	"specialty" text NOT NULL,
	"upin" text NOT NULL,
	"npi" text,
	"dob" date,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"excl_type" text NOT NULL,
	"excl_date" date,
	"rein_date" date,
	"waiver_date" date,
	"waiver_state" text NOT NULL,
	"name_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leie_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leie_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"imported_by" text,
	"file_name" text NOT NULL,
	"row_count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leie_imports" ADD CONSTRAINT "leie_imports_imported_by_user_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leie_exclusions_npi_idx" ON "leie_exclusions" USING btree ("npi");--> statement-breakpoint
CREATE INDEX "leie_exclusions_name_idx" ON "leie_exclusions" USING btree ("name_key");