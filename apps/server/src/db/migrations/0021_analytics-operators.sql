CREATE TABLE "analytics_upload_windows" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"uploads" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_upload_windows" ADD CONSTRAINT "analytics_upload_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;