CREATE TABLE "committee_votes" (
	"agenda_item_id" uuid NOT NULL,
	"member_id" text NOT NULL,
	"vote" text NOT NULL,
	"reviewed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "committee_votes_agenda_item_id_member_id_pk" PRIMARY KEY("agenda_item_id","member_id"),
	CONSTRAINT "committee_votes_vote_check" CHECK ("committee_votes"."vote" in ('approve', 'approve_with_conditions', 'deny', 'defer'))
);
--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD COLUMN "present_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD COLUMN "present_marked_by" text;--> statement-breakpoint
ALTER TABLE "committee_votes" ADD CONSTRAINT "committee_votes_agenda_item_id_committee_agenda_items_id_fk" FOREIGN KEY ("agenda_item_id") REFERENCES "public"."committee_agenda_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_votes" ADD CONSTRAINT "committee_votes_member_id_user_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "committee_votes_member_idx" ON "committee_votes" USING btree ("member_id");--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD CONSTRAINT "committee_meeting_members_present_marked_by_user_id_fk" FOREIGN KEY ("present_marked_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;