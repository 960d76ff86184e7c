-- Issue 14: per-(trader, scope, day) rollups of trades, kept right by statement-level triggers on trades, so every
-- write path (the API, imports, a re-file of trading days, a cascade, a statement typed into psql) updates them in the
-- same transaction. A touched (trader, day) is recomputed from its trades, not patched by deltas: a streak summary
-- cannot be "un-added", and a day holds tens of trades, so recomputing it is as cheap as patching it.
GRANT SELECT, INSERT, UPDATE, DELETE ON trade_day_rollups TO edgebook_app;
--> statement-breakpoint
CREATE FUNCTION refresh_trade_day_rollups(p_users text[], p_days date[]) RETURNS void
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

  -- Each touched day is read through the (user_id, trade_date) index on its own (a LATERAL subquery), a plan that
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
      -- The day's results in the order the streaks read them: W, L, or B for anything else.
      string_agg(CASE t.status WHEN 'Win' THEN 'W' WHEN 'Loss' THEN 'L' ELSE 'B' END, ''
        ORDER BY t.trade_date, t.created_at, t.id) AS results
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
CREATE FUNCTION trades_rollup_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM refresh_trade_day_rollups(array_agg(k.user_id), array_agg(k.day))
  FROM (SELECT DISTINCT user_id, (trade_date AT TIME ZONE 'UTC')::date AS day FROM new_rows) AS k;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION trades_rollup_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM refresh_trade_day_rollups(array_agg(k.user_id), array_agg(k.day))
  FROM (SELECT DISTINCT user_id, (trade_date AT TIME ZONE 'UTC')::date AS day FROM old_rows) AS k;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only rows whose owner, account, day, order, result or pnl changed touch the rollups: editing notes costs nothing.
CREATE FUNCTION trades_rollup_on_update() RETURNS trigger
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
        OR (o.user_id, o.account_id, o.trade_date, o.created_at, o.status, o.pnl)
           IS DISTINCT FROM (n.user_id, n.account_id, n.trade_date, n.created_at, n.status, n.pnl))
  ) AS k;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trades_rollup_insert AFTER INSERT ON trades
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_rollup_on_insert();
--> statement-breakpoint
CREATE TRIGGER trades_rollup_update AFTER UPDATE ON trades
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_rollup_on_update();
--> statement-breakpoint
CREATE TRIGGER trades_rollup_delete AFTER DELETE ON trades
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_rollup_on_delete();
--> statement-breakpoint
-- TRUNCATE has no transition table; it empties every trader's trades, so it empties every rollup.
CREATE FUNCTION trades_rollup_on_truncate() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM trade_day_rollups;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trades_rollup_truncate AFTER TRUNCATE ON trades FOR EACH STATEMENT EXECUTE FUNCTION trades_rollup_on_truncate();
--> statement-breakpoint
SELECT refresh_trade_day_rollups(array_agg(k.user_id), array_agg(k.day))
FROM (SELECT DISTINCT user_id, (trade_date AT TIME ZONE 'UTC')::date AS day FROM trades) AS k;
