CREATE TABLE "design_history_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"region" text NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"uploaded_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "design_history_attachments_region_ck" CHECK ("design_history_attachments"."region" in ('eu', 'us'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "design_history_attachments_entry_file_idx" ON "design_history_attachments" USING btree ("entry_id","sha256");--> statement-breakpoint
CREATE INDEX "design_history_attachments_project_idx" ON "design_history_attachments" USING btree ("project_id");--> statement-breakpoint
-- Attachments are immutable (issue 20 item 4, 21 CFR Part 11 §11.10(c)): never changed or removed, whichever role
-- asks, and none is added to a signed entry (its signature's manifest lists the files it binds). The same on PGlite
-- and PostgreSQL, like the signatures of 0018.
CREATE FUNCTION "design_history_attachments_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM "electronic_signatures" s WHERE s.record_type = 'entry' AND s.record_id = NEW.entry_id::text) THEN
      RAISE EXCEPTION 'A signed design history entry cannot change: a file cannot be attached to it.'
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'Design history attachments are immutable: % of design_history_attachments is refused.', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "design_history_attachments_guarded" BEFORE INSERT OR UPDATE OR DELETE ON "design_history_attachments"
  FOR EACH ROW EXECUTE FUNCTION "design_history_attachments_guard"();--> statement-breakpoint
CREATE TRIGGER "design_history_attachments_no_truncate" BEFORE TRUNCATE ON "design_history_attachments"
  FOR EACH STATEMENT EXECUTE FUNCTION "design_history_attachments_guard"();
