-- Issue 29: every fill kept, price bars shared as market data, and each trade's MAE/MFE stored.
-- trade_fills: a trader's own, like notes: (trade_id, user_id) references the trade with its owner, removed with it.
-- Older trades simply have none; a re-import of their file adds them (src/server/features/imports).
CREATE TABLE "trade_fills" (
	"user_id" text NOT NULL,
	"trade_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(24, 8) NOT NULL,
	"price" numeric(24, 8) NOT NULL,
	"commission" numeric(16, 2),
	"broker_id" text,
	CONSTRAINT "trade_fills_pk" PRIMARY KEY("user_id","trade_id","seq"),
	CONSTRAINT "trade_fills_side" CHECK ("trade_fills"."side" in ('Buy', 'Sell')),
	CONSTRAINT "trade_fills_quantity" CHECK ("trade_fills"."quantity" > 0),
	CONSTRAINT "trade_fills_commission" CHECK ("trade_fills"."commission" >= 0)
);
--> statement-breakpoint
ALTER TABLE "trade_fills" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "trade_fills" ADD CONSTRAINT "trade_fills_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_fills" ADD CONSTRAINT "trade_fills_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "trade_fills_owner" ON "trade_fills" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON trade_fills TO edgebook_app;--> statement-breakpoint
-- price_bars: market data, not a trader's (DESIGN.md "Fills and market data"): one row per contract, resolution
-- (seconds) and bar start, whoever added it, readable by every signed-in trader. No user_id and no owner policy; the
-- policies below let the app role read when a trader is signed in, add rows only in that trader's name, and delete
-- only the rows that trader added. Rows are never updated: a bar already stored keeps its values.
CREATE TABLE "price_bars" (
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
ALTER TABLE "price_bars" ADD CONSTRAINT "price_bars_added_by_user_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_bars_added_by_idx" ON "price_bars" USING btree ("added_by","contract","resolution","start");--> statement-breakpoint
CREATE POLICY "price_bars_read" ON "price_bars" AS PERMISSIVE FOR SELECT TO public USING (coalesce(current_setting('app.user_id', true), '') <> '');--> statement-breakpoint
CREATE POLICY "price_bars_add" ON "price_bars" AS PERMISSIVE FOR INSERT TO public WITH CHECK (added_by = current_setting('app.user_id', true));--> statement-breakpoint
CREATE POLICY "price_bars_remove" ON "price_bars" AS PERMISSIVE FOR DELETE TO public USING (added_by = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON price_bars TO edgebook_app;--> statement-breakpoint
-- trade_excursions: each trade's MAE, MFE, best exit, capture and exit analysis as computed from the bars
-- (src/domain/market/excursions.ts), recomputed when the trade or the bars of its contract change; `detail` keeps the
-- whole result (the exit analysis, or which bars are missing). A trader's own, removed with the trade.
CREATE TABLE "trade_excursions" (
	"user_id" text NOT NULL,
	"trade_id" uuid NOT NULL,
	"status" text NOT NULL,
	"resolution" integer,
	"mae_points" numeric(24, 8),
	"mfe_points" numeric(24, 8),
	"mae_ticks" numeric(24, 4),
	"mfe_ticks" numeric(24, 4),
	"mae" numeric(16, 2),
	"mfe" numeric(16, 2),
	"best_exit_price" numeric(24, 8),
	"capture" numeric(12, 4),
	"detail" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_excursions_pk" PRIMARY KEY("user_id","trade_id"),
	CONSTRAINT "trade_excursions_status" CHECK ("trade_excursions"."status" in ('complete', 'missing', 'no-bars', 'not-applicable'))
);
--> statement-breakpoint
ALTER TABLE "trade_excursions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "trade_excursions" ADD CONSTRAINT "trade_excursions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_excursions" ADD CONSTRAINT "trade_excursions_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "trade_excursions_owner" ON "trade_excursions" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON trade_excursions TO edgebook_app;
