-- The touched days of each trader are read as one range of the trades' (user_id, trade_date) index, the days wanted
-- picked out of it, instead of one read per day. Planned from statistics taken right after a large delete (the
-- table's pages still there, nearly all their rows dead: the table looks empty), every index on user_id looked as cheap
-- as any other, and each day was read through the (id, user_id) unique index, skipping over ids: every trade of the
-- trader, again for every day. On an embedded database that had restored and deleted 30,000-trade backups before, the
-- rollups of the next such restore (750 days) took up to a minute while every other trader waited. Read as one range,
-- the worst plan reads the trader's trades once a call, and the write's last step calls this for at most 100 days at
-- a time. Otherwise migration 0013's function.
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

  -- One range of the index per trader (a LATERAL subquery), the touched days picked out of it, so that no plan reads
  -- more than the trader's trades once: PGlite runs no autovacuum, and without statistics a plain join of the touched
  -- days with trades was planned as a merge join on user_id alone (minutes for a 100,000-trade insert).
  INSERT INTO trade_day_rollups (user_id, scope, day, trades, wins, losses, break_evens, pnl, gross_profit, gross_loss,
    head_result, head_run, tail_result, tail_run, max_win_run, max_loss_run)
  SELECT k.user_id, g.scope, g.day, g.trades, g.wins, g.losses, g.break_evens, g.pnl, g.gross_profit, g.gross_loss,
    left(runs.head, 1), coalesce(length(runs.head), 0),
    left(runs.tail, 1), coalesce(length(runs.tail), 0),
    (SELECT coalesce(max(length(run)), 0) FROM regexp_split_to_table(g.results, '[^W]+') AS run),
    (SELECT coalesce(max(length(run)), 0) FROM regexp_split_to_table(g.results, '[^L]+') AS run)
  FROM (
    SELECT user_id, array_agg(DISTINCT day) AS days, min(day) AS first_day, max(day) AS last_day
    FROM unnest(p_users, p_days) AS k(user_id, day)
    GROUP BY user_id
  ) AS k
  CROSS JOIN LATERAL (
    SELECT d.day,
      CASE WHEN grouping(t.account_id) = 1 THEN 'all' ELSE coalesce(t.account_id::text, 'none') END AS scope,
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
    CROSS JOIN LATERAL (SELECT (t.trade_date AT TIME ZONE 'UTC')::date AS day) AS d
    WHERE t.user_id = k.user_id
      AND t.trade_date >= k.first_day::timestamp AT TIME ZONE 'UTC'
      AND t.trade_date < (k.last_day + 1)::timestamp AT TIME ZONE 'UTC'
      AND d.day = ANY (k.days)
    GROUP BY GROUPING SETS ((d.day), (d.day, t.account_id))
  ) AS g
  CROSS JOIN LATERAL (
    SELECT substring(g.results FROM '^(W+|L+)') AS head, substring(g.results FROM '(W+|L+)$') AS tail
  ) AS runs
  WHERE g.trades > 0;
END
$$;
