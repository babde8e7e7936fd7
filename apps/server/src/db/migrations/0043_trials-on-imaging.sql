ALTER TABLE "trials" DROP CONSTRAINT "trials_subject_ck";--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "imaging_dataset_id" uuid;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_imaging_dataset_id_imaging_datasets_id_fk" FOREIGN KEY ("imaging_dataset_id") REFERENCES "public"."imaging_datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_subject_ck" CHECK (num_nonnulls("trials"."cohort_id", "trials"."ssm_id", "trials"."imaging_dataset_id") = 1);