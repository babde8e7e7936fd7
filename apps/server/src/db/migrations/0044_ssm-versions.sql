DROP INDEX "ssms_project_configuration_uq";--> statement-breakpoint
ALTER TABLE "ssms" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "ssms" ADD COLUMN "rebuilt_from" uuid;--> statement-breakpoint
ALTER TABLE "ssms" ADD CONSTRAINT "ssms_rebuilt_from_ssms_id_fk" FOREIGN KEY ("rebuilt_from") REFERENCES "public"."ssms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ssms_project_configuration_version_uq" ON "ssms" USING btree ("project_id","configuration_key","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ssms_rebuilt_from_uq" ON "ssms" USING btree ("rebuilt_from");