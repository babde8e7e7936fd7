ALTER TABLE "cohort_patients" ADD COLUMN "record" jsonb;--> statement-breakpoint
-- Cohorts ordered before this migration: their meshes were built by the only mesh model there has been so far
-- (anatomy-meshes-1). The patient records are filled at start-up (CohortService.storeMissingRecords).
ALTER TABLE "cohorts" ADD COLUMN "mesh_model_version" text;--> statement-breakpoint
UPDATE "cohorts" SET "mesh_model_version" = 'anatomy-meshes-1' WHERE "mesh_model_version" IS NULL;--> statement-breakpoint
ALTER TABLE "cohorts" ALTER COLUMN "mesh_model_version" SET NOT NULL;
