ALTER TABLE "imaging_datasets" ADD COLUMN "models" jsonb;--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD COLUMN "models_storage_key" text;--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD COLUMN "models_delivered_by" uuid;--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD COLUMN "ready_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "imaging_datasets" ADD CONSTRAINT "imaging_datasets_models_delivered_by_users_id_fk" FOREIGN KEY ("models_delivered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "writer_token" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "writer_until" timestamp (3) with time zone;