-- Issue 24 point 1: trades are ordered by when they were traded, everywhere. The trading order is
--   (trade_date, coalesce(entry_time, exit_time, created_at), coalesce(exit_time, entry_time, created_at), created_at, id)
-- (src/domain/trades/trading-order.ts). Its two time keys are kept by the database as generated columns, so the list's
-- indexes can hold them and a page stays an index range scan. Imported trades, restored backups and the sample trades
-- share one created_at (one transaction each), so ordering by creation put a day's trades in random (id) order.
ALTER TABLE "trades"
  ADD COLUMN "ordering_entry_time" timestamp with time zone NOT NULL GENERATED ALWAYS AS (coalesce(entry_time, exit_time, created_at)) STORED,
  ADD COLUMN "ordering_exit_time" timestamp with time zone NOT NULL GENERATED ALWAYS AS (coalesce(exit_time, entry_time, created_at)) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "trades_user_date_id_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "trades_user_account_date_id_idx";
--> statement-breakpoint
CREATE INDEX "trades_user_order_idx" ON "trades" USING btree ("user_id","trade_date" DESC NULLS FIRST,"ordering_entry_time" DESC NULLS FIRST,"ordering_exit_time" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "trades_user_account_order_idx" ON "trades" USING btree ("user_id","account_id","trade_date" DESC NULLS FIRST,"ordering_entry_time" DESC NULLS FIRST,"ordering_exit_time" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
--> statement-breakpoint
-- Migration 0008's function, with the day's results read in the trading order (it read trade_date, created_at, id).
CREATE OR REPLACE FUNCTION refresh_trade_day_rollups(p_users text[], p_days date[]) RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF p_users IS NULL OR cardinality(p_users) = 0 THEN
    RETURN;
  END IF;
  -- One rollup writer per trader at a time. Under READ COMMITTED the recompute below then sees the rows of any
  -- transaction that wrote the same trader's trades and committed while this one waited, so concurrent writes cannot
  -- leave a day computed from a stale snapshot. Taken in a fixed order, so two multi-trader writes cannot deadlock.
  PERFORM pg_advisory_xact_lock(hashtextextended('edgebook.trade_day_rollups:' || owner_id, 0))
  FROM (SELECT DISTINCT owner_id FROM unnest(p_users) AS owner_id ORDER BY owner_id) AS owners;

  DELETE FROM trade_day_rollups r
  USING (SELECT DISTINCT user_id, day FROM unnest(p_users, p_days) AS k(user_id, day)) AS k
  WHERE r.user_id = k.user_id AND r.day = k.day;

  -- Each touched day is read through the (user_id, trade_date, ...) index on its own (a LATERAL subquery), a plan that
  -- does not depend on statistics: PGlite runs no autovacuum, and without statistics a plain join of the touched
  -- days with trades was planned as a merge join on user_id alone (minutes for a 100,000-trade insert).
  INSERT INTO trade_day_rollups (user_id, scope, day, trades, wins, losses, break_evens, pnl, gross_profit, gross_loss,
    head_result, head_run, tail_result, tail_run, max_win_run, max_loss_run)
  SELECT k.user_id, g.scope, k.day, g.trades, g.wins, g.losses, g.break_evens, g.pnl, g.gross_profit, g.gross_loss,
    left(runs.head, 1), coalesce(length(runs.head), 0),
    left(runs.tail, 1), coalesce(length(runs.tail), 0),
    (SELECT coalesce(max(length(run)), 0) FROM regexp_split_to_table(g.results, '[^W]+') AS run),
    (SELECT coalesce(max(length(run)), 0) FROM regexp_split_to_table(g.results, '[^L]+') AS run)
  FROM (SELECT DISTINCT user_id, day FROM unnest(p_users, p_days) AS k(user_id, day)) AS k
  CROSS JOIN LATERAL (
    SELECT CASE WHEN grouping(t.account_id) = 1 THEN 'all' ELSE coalesce(t.account_id::text, 'none') END AS scope,
      count(*)::int AS trades,
      (count(*) FILTER (WHERE t.status = 'Win'))::int AS wins,
      (count(*) FILTER (WHERE t.status = 'Loss'))::int AS losses,
      (count(*) FILTER (WHERE t.status NOT IN ('Win', 'Loss')))::int AS break_evens,
      coalesce(sum(t.pnl), 0) AS pnl,
      coalesce(sum(t.pnl) FILTER (WHERE t.pnl > 0), 0) AS gross_profit,
      coalesce(sum(t.pnl) FILTER (WHERE t.pnl < 0), 0) AS gross_loss,
      -- The day's results in the trading order, as the streaks read them: W, L, or B for anything else.
      string_agg(CASE t.status WHEN 'Win' THEN 'W' WHEN 'Loss' THEN 'L' ELSE 'B' END, ''
        ORDER BY t.trade_date, t.ordering_entry_time, t.ordering_exit_time, t.created_at, t.id) AS results
    FROM trades t
    WHERE t.user_id = k.user_id
      AND t.trade_date >= k.day::timestamp AT TIME ZONE 'UTC'
      AND t.trade_date < (k.day + 1)::timestamp AT TIME ZONE 'UTC'
    GROUP BY GROUPING SETS ((), (t.account_id))
  ) AS g
  CROSS JOIN LATERAL (
    SELECT substring(g.results FROM '^(W+|L+)') AS head, substring(g.results FROM '(W+|L+)$') AS tail
  ) AS runs
  -- The empty grouping set yields a row even for a day whose last trade has gone.
  WHERE g.trades > 0;
END
$$;
--> statement-breakpoint
-- Only rows whose owner, account, day, place in the trading order, result or pnl changed touch the rollups: editing
-- notes costs nothing, and editing an entry or exit time re-reads the day's streaks.
CREATE OR REPLACE FUNCTION trades_rollup_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM refresh_trade_day_rollups(array_agg(k.user_id), array_agg(k.day))
  FROM (
    SELECT DISTINCT side.user_id, (side.trade_date AT TIME ZONE 'UTC')::date AS day
    FROM old_rows o
    FULL JOIN new_rows n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.user_id, o.trade_date), (n.user_id, n.trade_date)) AS side(user_id, trade_date)
    WHERE side.user_id IS NOT NULL
      AND (o.id IS NULL OR n.id IS NULL
        OR (o.user_id, o.account_id, o.trade_date, o.entry_time, o.exit_time, o.created_at, o.status, o.pnl)
           IS DISTINCT FROM (n.user_id, n.account_id, n.trade_date, n.entry_time, n.exit_time, n.created_at, n.status, n.pnl))
  ) AS k;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Issue 24 point 5: imported futures trades take the exchange's sessions from their entry's New York time (Overnight
-- 18:00-09:30, AM 09:30-12:00, Lunch 12:00-14:00, PM 14:00-16:00, After Hours 16:00-18:00; src/domain/trades/
-- sessions.ts). A stored imported trade is re-labelled when its session is still the one the old rule gave its entry
-- (before 12 AM, 12-14 Lunch, 14-20 PM, else Overnight): a session the trader chose by hand stays. Manual trades, the
-- sample trades and restored manual trades (json-backup) are left alone, as are imports without an entry time. A
-- futures trade is one whose contract (else symbol) is a dated contract as the importers store it (MNQZ5) or a futures
-- root they know (src/domain/importers/instruments.ts, isFuturesInstrument). The session's import tag follows it.
UPDATE trades t
SET period = relabel.next,
  tags = CASE WHEN relabel.next = ANY (t.tags) THEN array_remove(t.tags, t.period) ELSE array_replace(t.tags, t.period, relabel.next) END,
  updated_at = now()
FROM (
  SELECT s.id,
    CASE
      WHEN s.minute_of_day >= 18 * 60 OR s.minute_of_day < 9 * 60 + 30 THEN 'Overnight'
      WHEN s.minute_of_day < 12 * 60 THEN 'AM'
      WHEN s.minute_of_day < 14 * 60 THEN 'Lunch'
      WHEN s.minute_of_day < 16 * 60 THEN 'PM'
      ELSE 'After Hours'
    END AS next,
    CASE
      WHEN s.minute_of_day < 12 * 60 THEN 'AM'
      WHEN s.minute_of_day < 14 * 60 THEN 'Lunch'
      WHEN s.minute_of_day < 20 * 60 THEN 'PM'
      ELSE 'Overnight'
    END AS previous
  FROM (
    SELECT x.id,
      (extract(hour FROM x.entry_time AT TIME ZONE 'America/New_York') * 60
        + extract(minute FROM x.entry_time AT TIME ZONE 'America/New_York'))::int AS minute_of_day,
      upper(btrim(coalesce(nullif(x.contract, ''), x.symbol))) AS instrument
    FROM trades x
    WHERE x.import_source IS NOT NULL
      AND x.import_source NOT IN ('json-backup', 'sample')
      AND x.entry_time IS NOT NULL
  ) AS s
  WHERE s.instrument ~ '^([A-Z][A-Z0-9]{0,3}|6[A-Z][A-Z0-9]{0,2})[FGHJKMNQUVXZ][0-9]{1,2}$'
    OR s.instrument = ANY (ARRAY['NQ', 'MNQ', 'ES', 'MES', 'YM', 'MYM', 'RTY', 'M2K', 'EMD', 'NKD', 'GC', 'MGC', 'SI',
      'SIL', 'HG', 'MHG', 'PL', 'PA', 'CL', 'MCL', 'QM', 'NG', 'QG', 'RB', 'HO', 'ZB', 'UB', 'ZN', 'TN', 'ZF', 'ZT', 'ZC',
      'ZS', 'ZW', 'ZL', 'ZM', 'HE', 'LE', 'GF', '6E', 'M6E', '6B', 'M6B', '6J', '6A', 'M6A', '6C', '6S', '6M', '6N',
      'MBT', 'MET'])
) AS relabel
WHERE t.id = relabel.id
  AND t.period = relabel.previous
  AND t.period <> relabel.next;
--> statement-breakpoint
-- The exchange's sessions are choices in every trader's session list that has sessions (new traders get them among the
-- defaults; a trader who removed every session keeps an empty list).
INSERT INTO user_trade_preferences (user_id, preference_type, preference_value)
SELECT owners.user_id, 'session', wanted.value
FROM (SELECT DISTINCT user_id FROM user_trade_preferences WHERE preference_type = 'session') AS owners
CROSS JOIN (VALUES ('Overnight'), ('After Hours')) AS wanted(value)
WHERE NOT EXISTS (
  SELECT 1 FROM user_trade_preferences p
  WHERE p.user_id = owners.user_id AND p.preference_type = 'session' AND lower(p.preference_value) = lower(wanted.value)
)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Every stored rollup is recomputed in the trading order: each (trader, day) that has trades or a rollup.
SELECT refresh_trade_day_rollups(array_agg(k.user_id), array_agg(k.day))
FROM (
  SELECT DISTINCT user_id, (trade_date AT TIME ZONE 'UTC')::date AS day FROM trades
  UNION
  SELECT DISTINCT user_id, day FROM trade_day_rollups
) AS k;
