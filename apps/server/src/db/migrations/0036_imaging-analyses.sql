ALTER TABLE "analyses" ALTER COLUMN "cohort_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "imaging_dataset_id" uuid;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_imaging_dataset_id_imaging_datasets_id_fk" FOREIGN KEY ("imaging_dataset_id") REFERENCES "public"."imaging_datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_subject_ck" CHECK (("analyses"."cohort_id" is null) <> ("analyses"."imaging_dataset_id" is null));