CREATE TABLE "analysis_result_snapshots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"analysis_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"code_version" text NOT NULL,
	"content" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"taken_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analysis_result_snapshots_analysis_idx" ON "analysis_result_snapshots" USING btree ("analysis_id","taken_at");--> statement-breakpoint
-- An analysis' results snapshot is what a signature of its event binds (issue 20 item 7): append-only, whichever
-- role asks (the same on PGlite and PostgreSQL, like the audit trail of 0015 and the signatures of 0018).
CREATE FUNCTION "analysis_result_snapshots_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Analysis results snapshots are append-only: % of analysis_result_snapshots is refused.', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "analysis_result_snapshots_no_update_delete" BEFORE UPDATE OR DELETE ON "analysis_result_snapshots"
  FOR EACH ROW EXECUTE FUNCTION "analysis_result_snapshots_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "analysis_result_snapshots_no_truncate" BEFORE TRUNCATE ON "analysis_result_snapshots"
  FOR EACH STATEMENT EXECUTE FUNCTION "analysis_result_snapshots_refuse_change"();
