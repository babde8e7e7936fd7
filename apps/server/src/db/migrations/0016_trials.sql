CREATE TABLE "trial_patients" (
	"trial_id" uuid NOT NULL,
	"patient_id" text NOT NULL,
	"patient_index" integer NOT NULL,
	"room_id" uuid,
	"simulation_id" uuid,
	"placement" jsonb,
	"stage" text,
	"error" text,
	"outcomes" jsonb,
	"outcome_notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trial_patients_trial_id_patient_id_pk" PRIMARY KEY("trial_id","patient_id")
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"cohort_id" uuid NOT NULL,
	"device_version_id" uuid,
	"device_version_name" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"resolution" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"placement" jsonb NOT NULL,
	"based_on_trial_id" uuid,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "trial_patients" ADD CONSTRAINT "trial_patients_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_patients" ADD CONSTRAINT "trial_patients_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_patients" ADD CONSTRAINT "trial_patients_simulation_id_simulations_id_fk" FOREIGN KEY ("simulation_id") REFERENCES "public"."simulations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_device_version_id_device_versions_id_fk" FOREIGN KEY ("device_version_id") REFERENCES "public"."device_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_based_on_trial_id_trials_id_fk" FOREIGN KEY ("based_on_trial_id") REFERENCES "public"."trials"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trial_patients_simulation_idx" ON "trial_patients" USING btree ("simulation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trials_project_name_uq" ON "trials" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE INDEX "trials_project_created_idx" ON "trials" USING btree ("project_id","created_at");