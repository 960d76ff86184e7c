-- Prop-firm accounts (issue 28). Every trading account has a kind, a size, a starting balance and a firm; the single
-- starting balance of the dashboard's balance widget (user_preferences.starting_balance) moves to each of the trader's
-- accounts, so an account shows what it showed before until the trader sets its own.
ALTER TABLE "trading_accounts" ADD COLUMN "kind" text DEFAULT 'personal' NOT NULL;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "size" numeric(16, 2);--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "starting_balance" numeric(16, 2) DEFAULT '10000' NOT NULL;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "firm" text;--> statement-breakpoint
-- Bumped by the triggers below with every write of the account's trades: a server process knows its copy of an
-- account's trades (the prop status reads them all) is current by reading this one row.
ALTER TABLE "trading_accounts" ADD COLUMN "trades_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_kind" CHECK ("trading_accounts"."kind" in ('personal', 'evaluation', 'funded'));--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_size_positive" CHECK ("trading_accounts"."size" is null or "trading_accounts"."size" > 0);--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_firm_length" CHECK ("trading_accounts"."firm" is null or length("trading_accounts"."firm") between 1 and 100);--> statement-breakpoint
UPDATE "trading_accounts" a SET "starting_balance" = p."starting_balance"
FROM "user_preferences" p WHERE p."user_id" = a."user_id";--> statement-breakpoint
ALTER TABLE "user_preferences" DROP COLUMN "starting_balance";--> statement-breakpoint
CREATE TABLE "prop_rule_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"template_id" text,
	"rules" jsonb NOT NULL,
	"starts_on" date,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prop_rule_sets_account" UNIQUE("user_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "prop_rule_sets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "prop_ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"account_id" uuid,
	"firm" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(16, 2) NOT NULL,
	"occurred_on" date NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prop_ledger_entries_kind" CHECK ("prop_ledger_entries"."kind" in ('evaluation-fee', 'reset-fee', 'activation-fee', 'data-fee', 'other-fee', 'payout')),
	CONSTRAINT "prop_ledger_entries_amount_positive" CHECK ("prop_ledger_entries"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "prop_ledger_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "prop_rule_sets" ADD CONSTRAINT "prop_rule_sets_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prop_rule_sets" ADD CONSTRAINT "prop_rule_sets_account_owner_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."trading_accounts"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prop_ledger_entries" ADD CONSTRAINT "prop_ledger_entries_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A deleted account's costs and payouts stay in the firm's ROI: only the entry's account_id is cleared (a plain SET
-- NULL would clear user_id too), and the entry keeps its firm.
ALTER TABLE "prop_ledger_entries" ADD CONSTRAINT "prop_ledger_entries_account_owner_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."trading_accounts"("id","user_id") ON DELETE SET NULL ("account_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prop_ledger_entries_user_account_idx" ON "prop_ledger_entries" USING btree ("user_id","account_id","occurred_on");--> statement-breakpoint
CREATE POLICY "prop_rule_sets_owner" ON "prop_rule_sets" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
CREATE POLICY "prop_ledger_entries_owner" ON "prop_ledger_entries" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON prop_rule_sets, prop_ledger_entries TO edgebook_app;
--> statement-breakpoint
-- The trades_version of these accounts goes up by one. It takes the trader's lock that the rollup triggers take
-- (0008: one writer of a trader's trades at a time) before it locks account rows, and the triggers are named to fire
-- after the rollup triggers (a table's triggers fire in the order of their names): account rows are only ever locked
-- under that lock, so two writes cannot deadlock on them (a PATCH in account B waiting for the lock while an import
-- that holds it goes on into B). Rows are locked in the order of their ids.
CREATE FUNCTION bump_account_trades_versions(p_users text[], p_accounts uuid[]) RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF p_accounts IS NULL OR cardinality(p_accounts) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('edgebook.trade_day_rollups:' || owner_id, 0))
  FROM (SELECT DISTINCT owner_id FROM unnest(p_users) AS owner_id ORDER BY owner_id) AS owners;
  UPDATE trading_accounts a SET trades_version = a.trades_version + 1
  FROM (SELECT id FROM trading_accounts WHERE id = ANY (p_accounts) ORDER BY id FOR NO KEY UPDATE) AS locked
  WHERE a.id = locked.id;
END
$$;
--> statement-breakpoint
CREATE FUNCTION trades_account_version_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM bump_account_trades_versions(array_agg(DISTINCT user_id), array_agg(DISTINCT account_id))
  FROM new_rows WHERE account_id IS NOT NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION trades_account_version_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM bump_account_trades_versions(array_agg(DISTINCT user_id), array_agg(DISTINCT account_id))
  FROM old_rows WHERE account_id IS NOT NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only a change the prop rules read bumps the version: editing a trade's notes, tags or link keeps the copy.
CREATE FUNCTION trades_account_version_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM bump_account_trades_versions(array_agg(DISTINCT side.user_id), array_agg(DISTINCT side.account_id))
  FROM old_rows o
  JOIN new_rows n ON n.id = o.id
  CROSS JOIN LATERAL (VALUES (o.user_id, o.account_id), (n.user_id, n.account_id)) AS side(user_id, account_id)
  WHERE side.account_id IS NOT NULL
    AND (o.account_id, o.trade_date, o.pnl, o.entry_time, o.exit_time, o.quantity, o.symbol, o.contract, o.created_at)
      IS DISTINCT FROM (n.account_id, n.trade_date, n.pnl, n.entry_time, n.exit_time, n.quantity, n.symbol, n.contract, n.created_at);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trades_version_by_account_insert AFTER INSERT ON trades
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_account_version_on_insert();
--> statement-breakpoint
CREATE TRIGGER trades_version_by_account_update AFTER UPDATE ON trades
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_account_version_on_update();
--> statement-breakpoint
CREATE TRIGGER trades_version_by_account_delete AFTER DELETE ON trades
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_account_version_on_delete();
--> statement-breakpoint
CREATE FUNCTION trades_account_version_on_truncate() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE trading_accounts SET trades_version = trades_version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trades_version_by_account_truncate AFTER TRUNCATE ON trades FOR EACH STATEMENT EXECUTE FUNCTION trades_account_version_on_truncate();
