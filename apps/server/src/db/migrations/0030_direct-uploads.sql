ALTER TABLE "uploads" ADD COLUMN "multipart_id" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "parts" jsonb DEFAULT '{}'::jsonb NOT NULL;