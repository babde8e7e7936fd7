CREATE TABLE "ssms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"configuration" jsonb NOT NULL,
	"configuration_key" text NOT NULL,
	"shape_count" integer NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"job_id" uuid,
	"error" text,
	"summary" jsonb,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp (3) with time zone,
	CONSTRAINT "ssms_status_ck" CHECK ("ssms"."status" in ('in_progress', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "ssms" ADD CONSTRAINT "ssms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssms" ADD CONSTRAINT "ssms_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssms" ADD CONSTRAINT "ssms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ssms_project_configuration_uq" ON "ssms" USING btree ("project_id","configuration_key");--> statement-breakpoint
CREATE INDEX "ssms_project_created_idx" ON "ssms" USING btree ("project_id","created_at");--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_ssm_id_ssms_id_fk" FOREIGN KEY ("ssm_id") REFERENCES "public"."ssms"("id") ON DELETE cascade ON UPDATE no action;