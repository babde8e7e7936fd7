ALTER TABLE "rooms" DROP CONSTRAINT "rooms_subject_ck";--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "imaging_dataset_id" uuid;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "imaging_patient" text;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_imaging_dataset_id_imaging_datasets_id_fk" FOREIGN KEY ("imaging_dataset_id") REFERENCES "public"."imaging_datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rooms_imaging_dataset_idx" ON "rooms" USING btree ("imaging_dataset_id");--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_subject_ck" CHECK (("rooms"."cohort_id" is not null and "rooms"."patient_index" is not null) or "rooms"."ssm_id" is not null or ("rooms"."imaging_dataset_id" is not null and "rooms"."imaging_patient" is not null));