ALTER TABLE "trial_patients" ADD COLUMN "outcome_versions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_patients" ADD COLUMN "earlier_outcomes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "custom_outcome_history" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "outcome_job_id" uuid;--> statement-breakpoint
-- The user outcomes stored before keys and versions were kept: key by position (as they were read), version 1, and
-- the record's first version from the trial's creation.
UPDATE "trials" SET "custom_outcomes" = (
  SELECT coalesce(jsonb_agg(jsonb_build_object('key', 'user_' || o.i, 'version', 1, 'definition', o.value) ORDER BY o.i), '[]'::jsonb)
  FROM jsonb_array_elements("trials"."custom_outcomes") WITH ORDINALITY AS o(value, i)
) WHERE jsonb_array_length("custom_outcomes") > 0 AND ("custom_outcomes"->0->'definition') IS NULL;--> statement-breakpoint
UPDATE "trials" SET "custom_outcome_history" = (
  SELECT coalesce(jsonb_agg(o.value || jsonb_build_object(
    'since', to_char("trials"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'until', null,
    'by', "trials"."created_by") ORDER BY o.i), '[]'::jsonb)
  FROM jsonb_array_elements("trials"."custom_outcomes") WITH ORDINALITY AS o(value, i)
) WHERE jsonb_array_length("custom_outcomes") > 0;
