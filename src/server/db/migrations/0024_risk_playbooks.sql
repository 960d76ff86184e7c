-- Issue 27, point 1: a trade's side (Long/Short) is apart from its setup (trade_type). The spec's samples stored LONG
-- or SHORT in trade_type, and imports copied the side there, so "By Setup" tables listed Long and Short. Stored sides
-- are read the way src/domain/risk/side.ts reads them (long/buy, short/sell, any case, spaces around), the side column
-- wins over trade_type when both say something (it came from the fills), and a setup that was a side is left empty.
-- Only rows that change are written: an UPDATE that changes neither status nor pnl leaves the rollups alone.
UPDATE trades t SET side = moved.side, trade_type = moved.trade_type
FROM (
  SELECT id,
    coalesce(
      CASE lower(btrim(side)) WHEN 'long' THEN 'Long' WHEN 'buy' THEN 'Long' WHEN 'short' THEN 'Short' WHEN 'sell' THEN 'Short' END,
      CASE lower(btrim(trade_type)) WHEN 'long' THEN 'Long' WHEN 'buy' THEN 'Long' WHEN 'short' THEN 'Short' WHEN 'sell' THEN 'Short' END
    ) AS side,
    CASE WHEN lower(btrim(trade_type)) IN ('long', 'buy', 'short', 'sell') THEN '' ELSE trade_type END AS trade_type
  FROM trades
  WHERE side IS NOT NULL OR lower(btrim(trade_type)) IN ('long', 'buy', 'short', 'sell')
) AS moved
WHERE t.id = moved.id AND (t.side IS DISTINCT FROM moved.side OR t.trade_type IS DISTINCT FROM moved.trade_type);
--> statement-breakpoint
-- A side is now one of two words, and never a setup choice: a trader's 'Long' type would only bring the confusion back.
DELETE FROM user_trade_preferences
WHERE preference_type = 'trade_type' AND lower(btrim(preference_value)) IN ('long', 'buy', 'short', 'sell');
--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_side" CHECK ("side" IN ('Long', 'Short'));
--> statement-breakpoint
-- Issue 27, point 2: a trade's plan. A stop price or a dollar risk (never both), and an optional target.
ALTER TABLE "trades" ADD COLUMN "stop_price" numeric(24, 8);--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "risk_amount" numeric(16, 2);--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "target_price" numeric(24, 8);--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_one_risk" CHECK ("stop_price" IS NULL OR "risk_amount" IS NULL);--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_risk_amount_positive" CHECK ("risk_amount" > 0);--> statement-breakpoint
-- Defaults for trades without a plan of their own: per account (null: every account) and instrument root (null: any),
-- a stop distance in points or dollars a trade.
CREATE TABLE "risk_defaults" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"account_id" uuid,
	"root" text,
	"stop_points" numeric(24, 8),
	"risk_amount" numeric(16, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_defaults_scope" UNIQUE NULLS NOT DISTINCT("user_id","account_id","root"),
	CONSTRAINT "risk_defaults_one_kind" CHECK (num_nonnulls("stop_points", "risk_amount") = 1),
	CONSTRAINT "risk_defaults_positive" CHECK (coalesce("stop_points", "risk_amount") > 0),
	CONSTRAINT "risk_defaults_root_upper" CHECK ("root" = upper("root") AND "root" <> '')
);
--> statement-breakpoint
ALTER TABLE "risk_defaults" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "risk_defaults" ADD CONSTRAINT "risk_defaults_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_defaults" ADD CONSTRAINT "risk_defaults_account_owner_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."trading_accounts"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "risk_defaults_owner" ON "risk_defaults" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON risk_defaults TO edgebook_app;
