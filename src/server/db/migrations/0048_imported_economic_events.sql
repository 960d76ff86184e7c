-- High-impact USD events a trader imported from a file of past calendar weeks, for the news filter to find their
-- earlier trades. The feed's events stay public and the server's alone to write; these are the trader's own, behind
-- the owner policy like every owned table, so that one trader's file never changes another's filter. The key leads
-- with the owner and the instant: the filter asks for a trader's events within minutes of an entry.
CREATE TABLE "imported_economic_events" (
	"user_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"title" text NOT NULL,
	"country" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_economic_events_pk" PRIMARY KEY("user_id","at","title","country")
);
--> statement-breakpoint
ALTER TABLE "imported_economic_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "imported_economic_events" ADD CONSTRAINT "imported_economic_events_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "imported_economic_events_owner" ON "imported_economic_events" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON imported_economic_events TO edgebook_app;--> statement-breakpoint
-- A mentor's figures filter the trader's trades by news as the trader's own do: the mentor reads the trader's imported
-- events, and writes none.
GRANT SELECT ON imported_economic_events TO edgebook_mentor;--> statement-breakpoint
CREATE POLICY "imported_economic_events_mentor" ON "imported_economic_events" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);
