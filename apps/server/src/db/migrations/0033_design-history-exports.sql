CREATE TABLE "design_history_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid,
	"format" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_by" uuid NOT NULL,
	"region" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text,
	"bytes" integer,
	"sha256" text,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone,
	CONSTRAINT "design_history_exports_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "design_history_exports_status_ck" CHECK ("design_history_exports"."status" in ('queued', 'ready', 'failed', 'expired'))
);
--> statement-breakpoint
CREATE INDEX "design_history_exports_requester_idx" ON "design_history_exports" USING btree ("requested_by","device_id","created_at");--> statement-breakpoint
CREATE INDEX "design_history_exports_expiry_idx" ON "design_history_exports" USING btree ("expires_at");