CREATE TABLE "result_snapshots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"project_id" uuid,
	"object_type" text NOT NULL,
	"object_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"code_version" text NOT NULL,
	"content" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"taken_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "result_snapshots_object_idx" ON "result_snapshots" USING btree ("object_type","object_id","taken_at");--> statement-breakpoint
-- Issue 20 item 7 for every kind of evidence: the analyses' snapshots of 0025 move here unchanged (same ids,
-- content, hashes and times: the events that name them stay true), then their table goes.
INSERT INTO "result_snapshots" ("id", "device_id", "project_id", "object_type", "object_id", "revision", "code_version", "content", "content_hash", "taken_at")
  SELECT "id", "device_id", "project_id", 'analysis', "analysis_id", "revision", "code_version", "content", "content_hash", "taken_at"
  FROM "analysis_result_snapshots";--> statement-breakpoint
DROP TABLE "analysis_result_snapshots";--> statement-breakpoint
DROP FUNCTION "analysis_result_snapshots_refuse_change"();--> statement-breakpoint
-- A results snapshot is what a signature of its event binds: append-only, whichever role asks (the same on PGlite
-- and PostgreSQL, like the audit trail of 0015 and the signatures of 0018).
CREATE FUNCTION "result_snapshots_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Results snapshots are append-only: % of result_snapshots is refused.', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "result_snapshots_no_update_delete" BEFORE UPDATE OR DELETE ON "result_snapshots"
  FOR EACH ROW EXECUTE FUNCTION "result_snapshots_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "result_snapshots_no_truncate" BEFORE TRUNCATE ON "result_snapshots"
  FOR EACH STATEMENT EXECUTE FUNCTION "result_snapshots_refuse_change"();--> statement-breakpoint
CREATE TABLE "event_outbox" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"enqueued_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL,
	"leased_until" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "event_outbox_lease_idx" ON "event_outbox" USING btree ("leased_until");--> statement-breakpoint
-- The outbox row of every domain event, in the transaction that writes the event (one statement, no round trip):
-- the event relay (events/event-relay.ts) delivers it to the subscribers after the commit, or after a crash.
CREATE FUNCTION "domain_events_to_outbox"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "event_outbox" ("event_id") SELECT "id" FROM "written";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "domain_events_outbox" AFTER INSERT ON "domain_events" REFERENCING NEW TABLE AS "written"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_events_to_outbox"();
