CREATE TABLE "domain_events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"occurred_at" timestamp (6) with time zone NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"device_id" uuid,
	"project_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"request_id" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "domain_events_device_idx" ON "domain_events" USING btree ("device_id","seq");--> statement-breakpoint
CREATE INDEX "domain_events_project_idx" ON "domain_events" USING btree ("project_id","seq");--> statement-breakpoint
-- The audit trail is append-only (21 CFR Part 11 §11.10(e)): no role that runs the application may change or remove
-- a row. Triggers work the same on PGlite and PostgreSQL; disabling them takes the table's owner, and the hash chain
-- (npm run audit -- verify) names any row changed that way.
CREATE FUNCTION "domain_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit trail is append-only: % of domain_events is refused.', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "domain_events_no_update_delete" BEFORE UPDATE OR DELETE ON "domain_events"
  FOR EACH ROW EXECUTE FUNCTION "domain_events_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "domain_events_no_truncate" BEFORE TRUNCATE ON "domain_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_events_refuse_change"();
