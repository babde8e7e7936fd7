CREATE TABLE "simulations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"device_version_id" uuid,
	"device_version_name" text,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"resolution" text NOT NULL,
	"phase" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"simulated_time" real DEFAULT 0 NOT NULL,
	"end_time" real NOT NULL,
	"eta_seconds" real,
	"error" text,
	"estimate" jsonb NOT NULL,
	"scenario_version" text NOT NULL,
	"region" text NOT NULL,
	"storage_prefix" text NOT NULL,
	"stored_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"job_id" uuid,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_device_version_id_device_versions_id_fk" FOREIGN KEY ("device_version_id") REFERENCES "public"."device_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_job_id_job_runs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."job_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "simulations_room_name_uq" ON "simulations" USING btree ("room_id",lower("name"));--> statement-breakpoint
CREATE INDEX "simulations_project_created_idx" ON "simulations" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "simulations_status_idx" ON "simulations" USING btree ("status");