CREATE TABLE "domain_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint,
	"occurred_at" timestamp (6) with time zone DEFAULT clock_timestamp() NOT NULL,
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
	"prev_hash" text,
	"hash" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "domain_events_seq_uq" ON "domain_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "domain_events_device_idx" ON "domain_events" USING btree ("device_id","id");--> statement-breakpoint
CREATE INDEX "domain_events_project_idx" ON "domain_events" USING btree ("project_id","id");--> statement-breakpoint
-- The audit trail is append-only (21 CFR Part 11 §11.10(e)). A row is written unchained in the transaction of its
-- change; the chainer then sets its place and hashes once (seq, prev_hash, hash from null, nothing else). Any other
-- UPDATE, every DELETE and TRUNCATE are refused, whichever role asks; the triggers work the same on PGlite and
-- PostgreSQL. Disabling them takes the table's owner, and the hash chain (npm run audit -- verify) names any row
-- changed that way.
CREATE FUNCTION "domain_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.hash IS NULL AND OLD.seq IS NULL AND OLD.prev_hash IS NULL
     AND NEW.hash IS NOT NULL AND NEW.seq IS NOT NULL AND NEW.prev_hash IS NOT NULL
     AND NEW.id = OLD.id AND NEW.occurred_at = OLD.occurred_at
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id AND NEW.actor_name IS NOT DISTINCT FROM OLD.actor_name
     AND NEW.action = OLD.action AND NEW.object_type = OLD.object_type AND NEW.object_id = OLD.object_id
     AND NEW.device_id IS NOT DISTINCT FROM OLD.device_id AND NEW.project_id IS NOT DISTINCT FROM OLD.project_id
     AND NEW.before IS NOT DISTINCT FROM OLD.before AND NEW.after IS NOT DISTINCT FROM OLD.after
     AND NEW.reason IS NOT DISTINCT FROM OLD.reason AND NEW.request_id IS NOT DISTINCT FROM OLD.request_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The audit trail is append-only: % of domain_events is refused.', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "domain_events_no_update_delete" BEFORE UPDATE OR DELETE ON "domain_events"
  FOR EACH ROW EXECUTE FUNCTION "domain_events_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "domain_events_no_truncate" BEFORE TRUNCATE ON "domain_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_events_refuse_change"();
