ALTER TABLE "trials" ADD COLUMN "custom_outcomes" jsonb DEFAULT '[]'::jsonb NOT NULL;
