ALTER TABLE "measurement_orders" ALTER COLUMN "cohort_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD COLUMN "ssm_id" uuid;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD COLUMN "shapes" jsonb;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD CONSTRAINT "measurement_orders_ssm_id_ssms_id_fk" FOREIGN KEY ("ssm_id") REFERENCES "public"."ssms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_orders" ADD CONSTRAINT "measurement_orders_subject_ck" CHECK (("measurement_orders"."cohort_id" is null) <> ("measurement_orders"."ssm_id" is null));