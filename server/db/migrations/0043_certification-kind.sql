CREATE TYPE "public"."certification_kind" AS ENUM('board', 'other');--> statement-breakpoint
ALTER TABLE "certifications" ADD COLUMN "certification_kind" "certification_kind" DEFAULT 'board' NOT NULL;