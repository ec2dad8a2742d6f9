CREATE TABLE "api_client_assertion_jtis" (
	"api_client_id" uuid NOT NULL,
	"jti_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_client_assertion_jtis_api_client_id_jti_hash_pk" PRIMARY KEY("api_client_id","jti_hash")
);
--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "jwks" jsonb;--> statement-breakpoint
ALTER TABLE "api_client_assertion_jtis" ADD CONSTRAINT "api_client_assertion_jtis_api_client_id_api_clients_id_fk" FOREIGN KEY ("api_client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;