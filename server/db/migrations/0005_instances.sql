CREATE TABLE "scheduled_job_runs" (
	"job" text NOT NULL,
	"period" text NOT NULL,
	"instance_id" uuid NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "scheduled_job_runs_job_period_pk" PRIMARY KEY("job","period")
);
--> statement-breakpoint
CREATE TABLE "server_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"storage_driver" text NOT NULL,
	"auth_secret_fingerprint" text NOT NULL,
	"field_keys_fingerprint" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
