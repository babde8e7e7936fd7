CREATE TABLE "design_history_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"evidence_event_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"supersedes_id" uuid,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "electronic_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"meaning" text NOT NULL,
	"signer_id" uuid NOT NULL,
	"signer_name" text NOT NULL,
	"signed_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL,
	"manifest" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"session_key" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "design_history_entries_project_idx" ON "design_history_entries" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "electronic_signatures_record_idx" ON "electronic_signatures" USING btree ("record_type","record_id");--> statement-breakpoint
CREATE INDEX "electronic_signatures_signer_session_idx" ON "electronic_signatures" USING btree ("signer_id","session_key");--> statement-breakpoint
-- Electronic signatures (21 CFR Part 11 §11.70) are append-only: a signature is never changed, moved to another
-- record or removed, whichever role asks (the same on PGlite and PostgreSQL, like the audit trail of 0015).
CREATE FUNCTION "electronic_signatures_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Electronic signatures are append-only: % of electronic_signatures is refused.', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "electronic_signatures_no_update_delete" BEFORE UPDATE OR DELETE ON "electronic_signatures"
  FOR EACH ROW EXECUTE FUNCTION "electronic_signatures_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "electronic_signatures_no_truncate" BEFORE TRUNCATE ON "electronic_signatures"
  FOR EACH STATEMENT EXECUTE FUNCTION "electronic_signatures_refuse_change"();--> statement-breakpoint
-- A signed design history entry cannot change or go (issue 20 item 5: only superseded by a new entry).
CREATE FUNCTION "design_history_entries_refuse_signed_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "electronic_signatures" s WHERE s.record_type = 'entry' AND s.record_id = OLD.id::text) THEN
    RAISE EXCEPTION 'A signed design history entry cannot be changed: % of design_history_entries is refused.', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "design_history_entries_signed_no_change" BEFORE UPDATE OR DELETE ON "design_history_entries"
  FOR EACH ROW EXECUTE FUNCTION "design_history_entries_refuse_signed_change"();
