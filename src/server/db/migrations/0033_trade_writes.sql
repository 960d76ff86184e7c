-- The trades write module (src/server/core/trades/write.ts) is the application's one door for writes of trades. It
-- opens a write with begin_trade_writes(): from then on, in that transaction, the triggers on trades no longer refresh
-- the per-day rollups, bump the versions and log the changes after every statement; they note what each statement
-- touched in a temporary table, and the module's last step, flush_trade_writes(), does all of it once for the whole
-- write. An import of 10,000 trades in 40 statements refreshed each touched day up to 40 times; now once.
-- A write that does not come through the module (an operator's SQL, a bench seeding rows as the tables' owner) still
-- gets everything done by the triggers as before, statement by statement.
CREATE FUNCTION begin_trade_writes() RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF to_regclass('pg_temp.pending_trade_writes') IS NULL THEN
    -- kind: 'd' a trading day whose rollups are due, 't' a trade whose change is logged, 'a' an account whose trades
    -- version goes up.
    CREATE TEMPORARY TABLE pending_trade_writes (kind "char" NOT NULL, user_id text NOT NULL, day date, trade_id uuid, account_id uuid);
  END IF;
  PERFORM set_config('edgebook.trade_writes', 'deferred', true);
END
$$;
--> statement-breakpoint
CREATE FUNCTION flush_trade_writes() RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF to_regclass('pg_temp.pending_trade_writes') IS NULL THEN
    RETURN;
  END IF;
  -- In the order the triggers run them: the rollups take the trader's lock, under which account rows are locked.
  PERFORM refresh_trade_day_rollups(array_agg(k.user_id), array_agg(k.day))
  FROM (SELECT DISTINCT user_id, day FROM pg_temp.pending_trade_writes WHERE kind = 'd') AS k;
  PERFORM bump_account_trades_versions(array_agg(DISTINCT user_id), array_agg(DISTINCT account_id))
  FROM pg_temp.pending_trade_writes WHERE kind = 'a';
  PERFORM log_trade_changes(array_agg(k.user_id), array_agg(k.trade_id))
  FROM (SELECT DISTINCT user_id, trade_id FROM pg_temp.pending_trade_writes WHERE kind = 't') AS k;
  DELETE FROM pg_temp.pending_trade_writes;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_rollup_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys date[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (SELECT DISTINCT user_id, (trade_date AT TIME ZONE 'UTC')::date FROM new_rows) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, day) SELECT 'd', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM refresh_trade_day_rollups(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_rollup_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys date[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (SELECT DISTINCT user_id, (trade_date AT TIME ZONE 'UTC')::date FROM old_rows) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, day) SELECT 'd', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM refresh_trade_day_rollups(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only rows whose owner, account, day, place in the trading order, result or pnl changed touch the rollups.
CREATE OR REPLACE FUNCTION trades_rollup_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys date[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (
    SELECT DISTINCT side.user_id, (side.trade_date AT TIME ZONE 'UTC')::date
    FROM old_rows o
    FULL JOIN new_rows n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.user_id, o.trade_date), (n.user_id, n.trade_date)) AS side(user_id, trade_date)
    WHERE side.user_id IS NOT NULL
      AND (o.id IS NULL OR n.id IS NULL
        OR (o.user_id, o.account_id, o.trade_date, o.entry_time, o.exit_time, o.created_at, o.status, o.pnl)
           IS DISTINCT FROM (n.user_id, n.account_id, n.trade_date, n.entry_time, n.exit_time, n.created_at, n.status, n.pnl))
  ) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, day) SELECT 'd', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM refresh_trade_day_rollups(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_version_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys uuid[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (SELECT user_id, id FROM new_rows) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, trade_id) SELECT 't', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM log_trade_changes(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_version_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys uuid[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (SELECT user_id, id FROM old_rows) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, trade_id) SELECT 't', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM log_trade_changes(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only a change a report reads is logged: editing a trade's notes or link keeps the reports' copy.
CREATE OR REPLACE FUNCTION trades_version_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys uuid[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (
    SELECT side.user_id, side.id
    FROM old_rows o
    FULL JOIN new_rows n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.user_id, o.id), (n.user_id, n.id)) AS side(user_id, id)
    WHERE side.user_id IS NOT NULL
      AND (o.id IS NULL OR n.id IS NULL
        OR (o.user_id, o.account_id, o.trade_date, o.symbol, o.contract, o.side, o.trade_type, o.period, o.tags, o.status,
            o.pnl, o.commission, o.entry_time, o.exit_time, o.quantity, o.created_at, o.entry_price, o.stop_price, o.risk_amount)
           IS DISTINCT FROM
           (n.user_id, n.account_id, n.trade_date, n.symbol, n.contract, n.side, n.trade_type, n.period, n.tags, n.status,
            n.pnl, n.commission, n.entry_time, n.exit_time, n.quantity, n.created_at, n.entry_price, n.stop_price, n.risk_amount))
  ) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, trade_id) SELECT 't', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM log_trade_changes(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_account_version_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys uuid[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (SELECT DISTINCT user_id, account_id FROM new_rows WHERE account_id IS NOT NULL) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, account_id) SELECT 'a', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM bump_account_trades_versions(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_account_version_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys uuid[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (SELECT DISTINCT user_id, account_id FROM old_rows WHERE account_id IS NOT NULL) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, account_id) SELECT 'a', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM bump_account_trades_versions(users, keys);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only a change the prop rules read moves an account's version.
CREATE OR REPLACE FUNCTION trades_account_version_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  users text[];
  keys uuid[];
BEGIN
  SELECT array_agg(k.user_id), array_agg(k.key) INTO users, keys
  FROM (
    SELECT DISTINCT side.user_id, side.account_id
    FROM old_rows o
    JOIN new_rows n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.user_id, o.account_id), (n.user_id, n.account_id)) AS side(user_id, account_id)
    WHERE side.account_id IS NOT NULL
      AND (o.account_id, o.trade_date, o.pnl, o.entry_time, o.exit_time, o.quantity, o.symbol, o.contract, o.created_at)
        IS DISTINCT FROM (n.account_id, n.trade_date, n.pnl, n.entry_time, n.exit_time, n.quantity, n.symbol, n.contract, n.created_at)
  ) AS k(user_id, key);
  IF current_setting('edgebook.trade_writes', true) = 'deferred' THEN
    INSERT INTO pg_temp.pending_trade_writes (kind, user_id, account_id) SELECT 'a', u, v FROM unnest(users, keys) AS x(u, v);
  ELSE
    PERFORM bump_account_trades_versions(users, keys);
  END IF;
  RETURN NULL;
END
$$;
