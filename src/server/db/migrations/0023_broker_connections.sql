-- Broker connections (issue 30): a trader's TopstepX (ProjectX Gateway) connection, its accounts and their fills.
-- broker_connections: the API key only as AES-256-GCM ciphertext (src/server/features/connections/secret-box.ts),
-- with the state of the sync under way or last finished. broker_accounts: the provider's accounts, each mapped (or
-- not) to a trading account, with where its next sync starts; deleting the trading account unmaps it (SET NULL names
-- its column, as the notes layer does, so user_id stays). broker_fills: every fill the API gave, keyed by the
-- provider's id, so a sync is idempotent and resumes where the last one stopped. All three are the trader's own.
CREATE TABLE "broker_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"user_name" text NOT NULL,
	"secret" text NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"last_error" text,
	"last_sync_at" timestamp with time zone,
	"last_outcome" jsonb,
	"sync_started_at" timestamp with time zone,
	"sync_heartbeat_at" timestamp with time zone,
	"sync_progress" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broker_connections_user_login" UNIQUE("user_id","provider","user_name"),
	CONSTRAINT "broker_connections_id_user" UNIQUE("id","user_id"),
	CONSTRAINT "broker_connections_status" CHECK ("broker_connections"."status" in ('connected', 'error'))
);
--> statement-breakpoint
ALTER TABLE "broker_connections" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "broker_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"connection_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"balance" numeric(16, 2),
	"can_trade" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"simulated" boolean,
	"listed" boolean DEFAULT true NOT NULL,
	"account_id" uuid,
	"sync_from" date,
	"fetched_until" timestamp with time zone,
	"flat_points" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_sync_added" integer,
	"last_sync_status" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broker_accounts_external" UNIQUE("user_id","connection_id","external_id"),
	CONSTRAINT "broker_accounts_id_user" UNIQUE("id","user_id"),
	CONSTRAINT "broker_accounts_sync_status" CHECK ("broker_accounts"."last_sync_status" in ('ok', 'error'))
);
--> statement-breakpoint
ALTER TABLE "broker_accounts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "broker_fills" (
	"user_id" text NOT NULL,
	"broker_account_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"contract_id" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(24, 8) NOT NULL,
	"price" numeric(24, 8) NOT NULL,
	"fees" numeric(16, 4) DEFAULT '0' NOT NULL,
	"pnl" numeric(16, 2),
	"order_id" text,
	"voided" boolean DEFAULT false NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broker_fills_pk" PRIMARY KEY("user_id","broker_account_id","external_id"),
	CONSTRAINT "broker_fills_side" CHECK ("broker_fills"."side" in ('Buy', 'Sell')),
	CONSTRAINT "broker_fills_quantity" CHECK ("broker_fills"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "broker_fills" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD CONSTRAINT "broker_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD CONSTRAINT "broker_accounts_connection_owner_fk" FOREIGN KEY ("connection_id","user_id") REFERENCES "public"."broker_connections"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD CONSTRAINT "broker_accounts_account_owner_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."trading_accounts"("id","user_id") ON DELETE SET NULL ("account_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_fills" ADD CONSTRAINT "broker_fills_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_fills" ADD CONSTRAINT "broker_fills_account_owner_fk" FOREIGN KEY ("broker_account_id","user_id") REFERENCES "public"."broker_accounts"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broker_accounts_user_account_idx" ON "broker_accounts" USING btree ("user_id","account_id");--> statement-breakpoint
CREATE INDEX "broker_fills_contract_time_idx" ON "broker_fills" USING btree ("user_id","broker_account_id","contract_id","time");--> statement-breakpoint
CREATE POLICY "broker_connections_owner" ON "broker_connections" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
CREATE POLICY "broker_accounts_owner" ON "broker_accounts" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
CREATE POLICY "broker_fills_owner" ON "broker_fills" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON broker_connections, broker_accounts, broker_fills TO edgebook_app;
--> statement-breakpoint
-- price_bars: the shared store of price bars (market data, readable by every signed-in trader, added in one's own name)
-- that slice `fills` (issue 29) creates in its migration 0022 with this same definition. Broker connections store the
-- one-minute bars they fetch there. Every statement below does nothing when 0022 made the table already, so the two
-- migrations run in either presence.
CREATE TABLE IF NOT EXISTS "price_bars" (
	"contract" text NOT NULL,
	"resolution" integer NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"open" numeric(24, 8) NOT NULL,
	"high" numeric(24, 8) NOT NULL,
	"low" numeric(24, 8) NOT NULL,
	"close" numeric(24, 8) NOT NULL,
	"volume" numeric(24, 8),
	"added_by" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_bars_pk" PRIMARY KEY("contract","resolution","start"),
	CONSTRAINT "price_bars_resolution" CHECK ("price_bars"."resolution" in (1, 60)),
	CONSTRAINT "price_bars_range" CHECK ("price_bars"."high" >= "price_bars"."low")
);
--> statement-breakpoint
ALTER TABLE "price_bars" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
DO $$ BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'price_bars_added_by_user_id_fk') THEN
		ALTER TABLE "price_bars" ADD CONSTRAINT "price_bars_added_by_user_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = 'public' AND tablename = 'price_bars' AND policyname = 'price_bars_read') THEN
		CREATE POLICY "price_bars_read" ON "price_bars" AS PERMISSIVE FOR SELECT TO public USING (coalesce(current_setting('app.user_id', true), '') <> '');
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = 'public' AND tablename = 'price_bars' AND policyname = 'price_bars_add') THEN
		CREATE POLICY "price_bars_add" ON "price_bars" AS PERMISSIVE FOR INSERT TO public WITH CHECK (added_by = current_setting('app.user_id', true));
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = 'public' AND tablename = 'price_bars' AND policyname = 'price_bars_remove') THEN
		CREATE POLICY "price_bars_remove" ON "price_bars" AS PERMISSIVE FOR DELETE TO public USING (added_by = current_setting('app.user_id', true));
	END IF;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "price_bars_added_by_idx" ON "price_bars" USING btree ("added_by","contract","resolution","start");--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON price_bars TO edgebook_app;
