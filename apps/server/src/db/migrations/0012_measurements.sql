CREATE TABLE "measurement_corrections" (
	"order_id" uuid NOT NULL,
	"patient_index" integer NOT NULL,
	"phase" text NOT NULL,
	"landmarks" jsonb NOT NULL,
	"corrected_by" uuid,
	"corrected_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "measurement_corrections_order_id_patient_index_phase_pk" PRIMARY KEY("order_id","patient_index","phase")
);
--> statement-breakpoint
CREATE TABLE "measurement_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"lineage_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"phase" text NOT NULL,
	"unit" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "measurement_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"cohort_id" uuid NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"measurements" jsonb NOT NULL,
	"job_id" uuid,
	"error" text,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp (3) with time zone,
	CONSTRAINT "measurement_orders_status_ck" CHECK ("measurement_orders"."status" in ('in_progress', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "measurement_results" (
	"order_id" uuid NOT NULL,
	"patient_index" integer NOT NULL,
	"measurement" integer NOT NULL,
	"automatic_value" double precision,
	"failure" text,
	"corrected_value" double precision,
	"corrected_failure" text,
	CONSTRAINT "measurement_results_order_id_patient_index_measurement_pk" PRIMARY KEY("order_id","patient_index","measurement")
);
--> statement-breakpoint
ALTER TABLE "measurement_corrections" ADD CONSTRAINT "measurement_corrections_order_id_measurement_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."measurement_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_corrections" ADD CONSTRAINT "measurement_corrections_corrected_by_users_id_fk" FOREIGN KEY ("corrected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_definitions" ADD CONSTRAINT "measurement_definitions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_definitions" ADD CONSTRAINT "measurement_definitions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD CONSTRAINT "measurement_orders_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD CONSTRAINT "measurement_orders_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD CONSTRAINT "measurement_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_results" ADD CONSTRAINT "measurement_results_order_id_measurement_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."measurement_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "measurement_definitions_lineage_version_uq" ON "measurement_definitions" USING btree ("lineage_id","version");--> statement-breakpoint
CREATE INDEX "measurement_definitions_device_idx" ON "measurement_definitions" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "measurement_orders_device_created_idx" ON "measurement_orders" USING btree ("device_id","created_at");