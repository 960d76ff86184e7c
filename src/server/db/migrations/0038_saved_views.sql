-- A trader's named report views: the Reports filter as its URL text, opened again from the sidebar or the command
-- palette. Names are unique per trader whatever their case, so the sidebar never shows two entries that read alike.
CREATE TABLE "saved_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"filter" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_views_name_length" CHECK (char_length("saved_views"."name") between 1 and 60),
	CONSTRAINT "saved_views_filter_length" CHECK (char_length("saved_views"."filter") <= 4000)
);
--> statement-breakpoint
ALTER TABLE "saved_views" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_user_name_idx" ON "saved_views" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE POLICY "saved_views_owner" ON "saved_views" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON saved_views TO edgebook_app;
