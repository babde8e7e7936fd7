ALTER TABLE "trials" ALTER COLUMN "cohort_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_patients" ADD COLUMN "instance_name" text;--> statement-breakpoint
ALTER TABLE "trial_patients" ADD COLUMN "instance_shape" text;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "ssm_id" uuid;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_ssm_id_ssms_id_fk" FOREIGN KEY ("ssm_id") REFERENCES "public"."ssms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_subject_ck" CHECK (("trials"."cohort_id" is null) <> ("trials"."ssm_id" is null));