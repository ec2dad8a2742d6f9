CREATE TABLE "notification_receipts" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"claimed_until" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
