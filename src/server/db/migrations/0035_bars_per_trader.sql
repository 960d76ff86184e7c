-- Price bars a trader uploads are theirs alone. Until now one copy of each bar served every trader of a server: a
-- trader's upload of absurd prices became every other trader's MAE and MFE, nobody else could delete or replace it, and
-- the coverage list showed everyone the minutes another trader's broker sync had fetched (when that trader traded).
-- From here:
--   price_bars      a trader's own bars (uploads), under row-level security like every owned table. A bar stored
--                   before is kept as its uploader's; a bar whose uploader is gone goes with them.
--   bar_uploads     each upload of bars: its contract, span and whether the trader confirmed that its source leaves
--                   out minutes without trades (then a minute without a bar inside it had no trades).
--   provider_bars   bars a provider's API gave (a ProjectX gateway, a crypto exchange's klines), kept apart per
--                   source and readable only by traders with a connection to that source; nobody's upload reaches
--                   them.
-- Every stored MAE and MFE was computed from the shared bars: they are removed, and computed again from each trader's
-- own bars (the server does it at start for the traders who have bars).
ALTER TABLE "price_bars" DROP CONSTRAINT "price_bars_pk";--> statement-breakpoint
DROP POLICY IF EXISTS "price_bars_read" ON "price_bars";--> statement-breakpoint
DROP POLICY IF EXISTS "price_bars_add" ON "price_bars";--> statement-breakpoint
DROP POLICY IF EXISTS "price_bars_remove" ON "price_bars";--> statement-breakpoint
DROP INDEX IF EXISTS "price_bars_added_by_idx";--> statement-breakpoint
ALTER TABLE "price_bars" DROP CONSTRAINT IF EXISTS "price_bars_added_by_user_id_fk";--> statement-breakpoint
DELETE FROM "price_bars" WHERE "added_by" IS NULL;--> statement-breakpoint
ALTER TABLE "price_bars" RENAME COLUMN "added_by" TO "user_id";--> statement-breakpoint
ALTER TABLE "price_bars" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "price_bars" ADD CONSTRAINT "price_bars_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_bars" ADD CONSTRAINT "price_bars_pk" PRIMARY KEY("user_id","contract","resolution","start");--> statement-breakpoint
CREATE POLICY "price_bars_owner" ON "price_bars" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON price_bars TO edgebook_app;--> statement-breakpoint
CREATE TABLE "bar_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"contract" text NOT NULL,
	"resolution" integer NOT NULL,
	"first_start" timestamp with time zone NOT NULL,
	"last_start" timestamp with time zone NOT NULL,
	"bars" integer NOT NULL,
	"format" text NOT NULL,
	"quiet_minutes" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bar_uploads_resolution" CHECK ("bar_uploads"."resolution" in (1, 60))
);
--> statement-breakpoint
ALTER TABLE "bar_uploads" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "bar_uploads" ADD CONSTRAINT "bar_uploads_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bar_uploads_user_contract_idx" ON "bar_uploads" USING btree ("user_id","contract","last_start");--> statement-breakpoint
CREATE POLICY "bar_uploads_owner" ON "bar_uploads" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON bar_uploads TO edgebook_app;--> statement-breakpoint
ALTER TABLE "broker_connections" ADD COLUMN "firm" text DEFAULT 'configured' NOT NULL;--> statement-breakpoint
-- A crypto exchange's connection (made before this migration) is no ProjectX firm's: its firm is the exchange.
UPDATE "broker_connections" SET "firm" = "provider" WHERE "provider" <> 'topstepx';--> statement-breakpoint
ALTER TABLE "broker_connections" ADD COLUMN "bar_source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "broker_connections" DROP CONSTRAINT "broker_connections_user_login";--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_user_login" UNIQUE("user_id","provider","firm","user_name");--> statement-breakpoint
CREATE INDEX "broker_connections_bar_source_idx" ON "broker_connections" USING btree ("bar_source","user_id");--> statement-breakpoint
CREATE TABLE "provider_bars" (
	"source" text NOT NULL,
	"contract" text NOT NULL,
	"resolution" integer NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"open" numeric(24, 8) NOT NULL,
	"high" numeric(24, 8) NOT NULL,
	"low" numeric(24, 8) NOT NULL,
	"close" numeric(24, 8) NOT NULL,
	"volume" numeric(24, 8),
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_bars_pk" PRIMARY KEY("source","contract","resolution","start"),
	CONSTRAINT "provider_bars_resolution" CHECK ("provider_bars"."resolution" in (1, 60)),
	CONSTRAINT "provider_bars_range" CHECK ("provider_bars"."high" >= "provider_bars"."low")
);
--> statement-breakpoint
ALTER TABLE "provider_bars" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "provider_bars_connected" ON "provider_bars" AS PERMISSIVE FOR SELECT TO public USING (EXISTS (SELECT 1 FROM broker_connections c WHERE c.user_id = current_setting('app.user_id', true) AND c.bar_source = provider_bars.source));--> statement-breakpoint
CREATE POLICY "provider_bars_add" ON "provider_bars" AS PERMISSIVE FOR INSERT TO public WITH CHECK (EXISTS (SELECT 1 FROM broker_connections c WHERE c.user_id = current_setting('app.user_id', true) AND c.bar_source = provider_bars.source));--> statement-breakpoint
GRANT SELECT, INSERT ON provider_bars TO edgebook_app;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "open_positions" jsonb;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "positions_read_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "broker_stops" (
	"user_id" text NOT NULL,
	"trade_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"stop_price" numeric(24, 8) NOT NULL,
	"placed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "broker_stops_pk" PRIMARY KEY("user_id","trade_id")
);
--> statement-breakpoint
ALTER TABLE "broker_stops" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "broker_stops" ADD CONSTRAINT "broker_stops_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_stops" ADD CONSTRAINT "broker_stops_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "broker_stops_owner" ON "broker_stops" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON broker_stops TO edgebook_app;--> statement-breakpoint
DELETE FROM "trade_excursions";
