-- Crypto perpetuals by read-only key (Binance USD-M, Bybit linear, Hyperliquid).
-- trading_accounts.currency: the currency an account's money is counted in. Futures accounts are USD; an exchange
-- account settles in USDT or USDC, and its figures are never added to another currency's.
ALTER TABLE "trading_accounts" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_currency" CHECK ("trading_accounts"."currency" in ('USD', 'USDT', 'USDC'));--> statement-breakpoint
-- trades.funding: the funding payments counted in the trade's P&L (paid or received while it was open), in its
-- account's currency; pnl = gross_pnl - commission + funding. Null for a trade no payment was attributed to.
ALTER TABLE "trades" ADD COLUMN "funding" numeric(16, 2);--> statement-breakpoint
-- broker_connections: what the trader sees for a login that is itself a secret (an exchange's API key: the row keeps
-- a keyed digest of it in user_name and "API key ending in ..." here), and what the exchange said of the key's
-- permissions when it was checked (it can trade: read-only would be safer).
ALTER TABLE "broker_connections" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "broker_connections" ADD COLUMN "key_warning" text;--> statement-breakpoint
-- broker_fills: an exchange charges fees in the asset it says (USDT, BNB, ...), to 8 decimals, and reports realized
-- P&L to 8 decimals; a perpetual's fill belongs to the long or short side of a hedge-mode position, or to the one
-- position of one-way mode (BOTH).
ALTER TABLE "broker_fills" ALTER COLUMN "fees" SET DATA TYPE numeric(24, 8);--> statement-breakpoint
ALTER TABLE "broker_fills" ALTER COLUMN "pnl" SET DATA TYPE numeric(24, 8);--> statement-breakpoint
ALTER TABLE "broker_fills" ADD COLUMN "fee_asset" text;--> statement-breakpoint
ALTER TABLE "broker_fills" ADD COLUMN "position_side" text;--> statement-breakpoint
-- The exchange's order of fills within one millisecond (its trade id or sequence, digits), and whether it said the fill
-- closed (part of) a position.
ALTER TABLE "broker_fills" ADD COLUMN "sequence" text;--> statement-breakpoint
ALTER TABLE "broker_fills" ADD COLUMN "closing" boolean;--> statement-breakpoint
ALTER TABLE "broker_fills" ADD CONSTRAINT "broker_fills_position_side" CHECK ("broker_fills"."position_side" in ('LONG', 'SHORT', 'BOTH'));--> statement-breakpoint
-- funding_payments: every funding payment an exchange reported for a synced account, an entry of its own (positive:
-- received, negative: paid), with the trade it counts in once one is found open at its time (trade_id), else none.
CREATE TABLE "funding_payments" (
	"user_id" text NOT NULL,
	"broker_account_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"contract" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"amount" numeric(24, 8) NOT NULL,
	"asset" text NOT NULL,
	"position_side" text,
	"trade_id" uuid,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "funding_payments_pk" PRIMARY KEY("user_id","broker_account_id","external_id"),
	CONSTRAINT "funding_payments_position_side" CHECK ("funding_payments"."position_side" in ('LONG', 'SHORT'))
);
--> statement-breakpoint
ALTER TABLE "funding_payments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "funding_payments" ADD CONSTRAINT "funding_payments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_payments" ADD CONSTRAINT "funding_payments_account_owner_fk" FOREIGN KEY ("broker_account_id","user_id") REFERENCES "public"."broker_accounts"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_payments" ADD CONSTRAINT "funding_payments_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE SET NULL ("trade_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funding_payments_account_time_idx" ON "funding_payments" USING btree ("user_id","broker_account_id","time");--> statement-breakpoint
CREATE INDEX "funding_payments_trade_idx" ON "funding_payments" USING btree ("user_id","trade_id");--> statement-breakpoint
CREATE POLICY "funding_payments_owner" ON "funding_payments" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON funding_payments TO edgebook_app;
