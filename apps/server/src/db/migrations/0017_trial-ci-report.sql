CREATE TABLE "trial_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trial_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"region" text NOT NULL,
	"storage_key" text NOT NULL,
	"bytes" integer,
	"sha256" text,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "trial_reports_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "trial_reports_status_ck" CHECK ("trial_reports"."status" in ('queued', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "acceptance" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "auto_rerun" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_reports" ADD CONSTRAINT "trial_reports_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_reports" ADD CONSTRAINT "trial_reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trial_reports_trial_idx" ON "trial_reports" USING btree ("trial_id","created_at");