-- High-impact USD events from the economic calendar feed, kept for the news filter. Public news with no owner: every
-- trader may read them (the app role may only read), and only the server writes them, on its owner connection. The
-- title, country and instant are the key, so an event the feed announces again is stored once.
CREATE TABLE "economic_events" (
	"title" text NOT NULL,
	"country" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "economic_events_pk" PRIMARY KEY("title","country","at")
);
--> statement-breakpoint
ALTER TABLE "economic_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "economic_events_at_idx" ON "economic_events" USING btree ("at");--> statement-breakpoint
CREATE POLICY "economic_events_read" ON "economic_events" AS PERMISSIVE FOR SELECT TO public USING (true);--> statement-breakpoint
GRANT SELECT ON economic_events TO edgebook_app;
