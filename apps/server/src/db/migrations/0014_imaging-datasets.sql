CREATE TABLE "imaging_datasets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'checking' NOT NULL,
	"uploaded_by" uuid,
	"region" text NOT NULL,
	"storage_key" text NOT NULL,
	"bytes" bigint NOT NULL,
	"job_id" uuid,
	"manifest" jsonb,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"patients" integer,
	"studies" integer,
	"series" integer,
	"files" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp (3) with time zone,
	CONSTRAINT "imaging_datasets_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "imaging_datasets_status_ck" CHECK ("imaging_datasets"."status" in ('checking', 'refused', 'modelling', 'ready')),
	CONSTRAINT "imaging_datasets_region_ck" CHECK ("imaging_datasets"."region" in ('eu', 'us'))
);
--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD CONSTRAINT "imaging_datasets_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD CONSTRAINT "imaging_datasets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD CONSTRAINT "imaging_datasets_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imaging_datasets_device_created_idx" ON "imaging_datasets" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "imaging_datasets_project_idx" ON "imaging_datasets" USING btree ("project_id");