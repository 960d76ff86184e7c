-- Read-only links a trader hands out to one trade, day, report view, playbook or prop account. The link's secret is
-- never stored: only its SHA-256 (token_hash) and the hash's first 16 hex digits (token_lookup), which find the row
-- before the whole hash is compared in constant time. Revoking keeps the row, so the trader's list still shows the
-- link's views.
CREATE TABLE "share_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"token_lookup" text NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"hide_amounts" boolean DEFAULT false NOT NULL,
	"hide_accounts" boolean DEFAULT false NOT NULL,
	"include_notes" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"views" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "share_links_kind" CHECK ("share_links"."kind" in ('trade', 'day', 'report', 'playbook', 'prop')),
	CONSTRAINT "share_links_hash_shape" CHECK ("share_links"."token_hash" ~ '^[0-9a-f]{64}$' and "share_links"."token_lookup" = left("share_links"."token_hash", 16))
);
--> statement-breakpoint
ALTER TABLE "share_links" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_links_lookup_idx" ON "share_links" USING btree ("token_lookup");--> statement-breakpoint
CREATE INDEX "share_links_user_created_idx" ON "share_links" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE POLICY "share_links_owner" ON "share_links" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON share_links TO edgebook_app;
