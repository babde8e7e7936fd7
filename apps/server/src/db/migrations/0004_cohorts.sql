CREATE TABLE "cohort_patients" (
	"cohort_id" uuid NOT NULL,
	"patient_index" integer NOT NULL,
	"patient_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "cohort_patients_cohort_id_patient_index_pk" PRIMARY KEY("cohort_id","patient_index")
);
--> statement-breakpoint
CREATE TABLE "cohorts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"criteria" jsonb NOT NULL,
	"size" integer NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"population_seed" bigint NOT NULL,
	"population_size" integer NOT NULL,
	"model_version" text NOT NULL,
	"sample_seed" bigint NOT NULL,
	"matching_at_order" integer NOT NULL,
	"job_id" uuid,
	"error" text,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp (3) with time zone,
	CONSTRAINT "cohorts_status_ck" CHECK ("cohorts"."status" in ('in_progress', 'ready', 'failed')),
	CONSTRAINT "cohorts_size_ck" CHECK ("cohorts"."size" in (5, 10, 20, 50, 100))
);
--> statement-breakpoint
CREATE TABLE "pathology_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cohort_patients" ADD CONSTRAINT "cohort_patients_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohorts" ADD CONSTRAINT "cohorts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohorts" ADD CONSTRAINT "cohorts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathology_requests" ADD CONSTRAINT "pathology_requests_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathology_requests" ADD CONSTRAINT "pathology_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cohorts_device_name_uq" ON "cohorts" USING btree ("device_id",lower("name"));--> statement-breakpoint
CREATE INDEX "cohorts_device_created_idx" ON "cohorts" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pathology_requests_uq" ON "pathology_requests" USING btree ("device_id","user_id",lower("name"));--> statement-breakpoint
CREATE INDEX "pathology_requests_created_idx" ON "pathology_requests" USING btree ("created_at");