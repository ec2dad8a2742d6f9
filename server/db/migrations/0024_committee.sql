CREATE TABLE "committee_agenda_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meeting_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"referral_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"recused_member_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"decision" text,
	"decision_text" text,
	"votes_for" integer,
	"votes_against" integer,
	"votes_abstained" integer,
	"present_member_ids" text[],
	"discussion" text,
	"effective_date" date,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "committee_agenda_decision_check" CHECK ("committee_agenda_items"."decision" in ('approve', 'approve_with_conditions', 'deny', 'defer'))
);
--> statement-breakpoint
CREATE TABLE "committee_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"statement" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "committee_appeals_outcome_check" CHECK ("committee_appeals"."outcome" in ('upheld', 'approved'))
);
--> statement-breakpoint
CREATE TABLE "committee_meeting_members" (
	"meeting_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "committee_meeting_members_meeting_id_user_id_pk" PRIMARY KEY("meeting_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "committee_meetings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"quorum" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text
);
--> statement-breakpoint
CREATE TABLE "decision_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"facts" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "decision_letters_kind_check" CHECK ("decision_letters"."kind" in ('approval', 'denial', 'appeal_upheld', 'appeal_approved'))
);
--> statement-breakpoint
CREATE TABLE "decision_referrals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"track" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"sent_by" text,
	"note" text,
	"closed_at" timestamp with time zone,
	"outcome" text,
	"outcome_text" text,
	"kind" text DEFAULT 'decision' NOT NULL,
	CONSTRAINT "decision_referrals_track_check" CHECK ("decision_referrals"."track" in ('clean_files', 'committee')),
	CONSTRAINT "decision_referrals_kind_check" CHECK ("decision_referrals"."kind" in ('decision', 'appeal'))
);
--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "decided_by_role" text;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "effective_date" date;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD COLUMN "decision_conditions" text;--> statement-breakpoint
ALTER TABLE "committee_agenda_items" ADD CONSTRAINT "committee_agenda_items_meeting_id_committee_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."committee_meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_agenda_items" ADD CONSTRAINT "committee_agenda_items_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_agenda_items" ADD CONSTRAINT "committee_agenda_items_referral_id_decision_referrals_id_fk" FOREIGN KEY ("referral_id") REFERENCES "public"."decision_referrals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_agenda_items" ADD CONSTRAINT "committee_agenda_items_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_appeals" ADD CONSTRAINT "committee_appeals_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD CONSTRAINT "committee_meeting_members_meeting_id_committee_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."committee_meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD CONSTRAINT "committee_meeting_members_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meetings" ADD CONSTRAINT "committee_meetings_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meetings" ADD CONSTRAINT "committee_meetings_closed_by_user_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_letters" ADD CONSTRAINT "decision_letters_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_referrals" ADD CONSTRAINT "decision_referrals_application_id_provider_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."provider_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_referrals" ADD CONSTRAINT "decision_referrals_sent_by_user_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "committee_agenda_meeting_application_idx" ON "committee_agenda_items" USING btree ("meeting_id","application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "committee_agenda_one_undecided_idx" ON "committee_agenda_items" USING btree ("application_id") WHERE "committee_agenda_items"."decision" is null;--> statement-breakpoint
CREATE INDEX "committee_agenda_meeting_idx" ON "committee_agenda_items" USING btree ("meeting_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "committee_appeals_application_idx" ON "committee_appeals" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "committee_members_user_idx" ON "committee_meeting_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "decision_letters_application_idx" ON "decision_letters" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "decision_referrals_one_open_idx" ON "decision_referrals" USING btree ("application_id") WHERE "decision_referrals"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "decision_referrals_open_track_idx" ON "decision_referrals" USING btree ("track","sent_at") WHERE "decision_referrals"."closed_at" is null;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD CONSTRAINT "provider_applications_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_applications" ADD CONSTRAINT "provider_applications_decided_by_role_check" CHECK ("provider_applications"."decided_by_role" in ('administrator', 'medical_director', 'committee', 'integration'));--> statement-breakpoint
-- Issue 32: decisions made before staff roles keep their decision, recorded as the administrators'.
UPDATE "provider_applications" SET "decided_by_role" = 'administrator' WHERE "application_status" IN ('approved', 'rejected') AND "decided_by_role" IS NULL;
