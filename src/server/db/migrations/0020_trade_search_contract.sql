-- Issue 24: searching finds an imported trade by its contract ('MNQH5', the symbol being the root 'MNQ'), in the
-- Ctrl+K palette and the Trade Log alike. The searchable text gains the contract (empty for manual trades), so the
-- text function, its trigram index and the search function that uses it are replaced together; nothing stored
-- changes. The columns stay joined by the unit separator the server strips from search terms (migration 0009).
CREATE FUNCTION trade_search_text(symbol text, contract text, trade_type text, period text, status text, notes text, day_of_week text, tags text[])
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT symbol || E'\x1f' || coalesce(contract, '') || E'\x1f' || trade_type || E'\x1f' || period || E'\x1f' || status
    || E'\x1f' || notes || E'\x1f' || day_of_week || E'\x1f' || array_to_string(tags, ' ')
$$;
--> statement-breakpoint
DROP INDEX trades_search_trgm_idx;
--> statement-breakpoint
CREATE INDEX trades_search_trgm_idx ON trades
USING gin (trade_search_text(symbol, contract, trade_type, period, status, notes, day_of_week, tags) gin_trgm_ops);
--> statement-breakpoint
-- As in migration 0009, with the contract in the text. CREATE OR REPLACE keeps the function's owner and grants.
CREATE OR REPLACE FUNCTION search_trades(p_pattern text) RETURNS SETOF trades
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 500 AS $$
DECLARE
  owner_id text := current_setting('app.user_id', true);
BEGIN
  IF owner_id IS NULL OR owner_id = '' OR p_pattern IS NULL THEN
    RETURN;
  END IF;
  IF p_pattern ~ '[^%_\\]{3}' THEN
    RETURN QUERY EXECUTE
      'SELECT t.* FROM trades t WHERE (t.user_id || '''') = $1
         AND trade_search_text(t.symbol, t.contract, t.trade_type, t.period, t.status, t.notes, t.day_of_week, t.tags) ILIKE $2'
      USING owner_id, p_pattern;
  ELSE
    RETURN QUERY
      SELECT t.* FROM trades t WHERE t.user_id = owner_id
        AND trade_search_text(t.symbol, t.contract, t.trade_type, t.period, t.status, t.notes, t.day_of_week, t.tags) ILIKE p_pattern;
  END IF;
  RETURN QUERY
    SELECT t.* FROM trading_accounts a
    JOIN trades t ON t.user_id = a.user_id AND t.account_id = a.id
    WHERE a.user_id = owner_id AND a.name ILIKE p_pattern
      AND NOT trade_search_text(t.symbol, t.contract, t.trade_type, t.period, t.status, t.notes, t.day_of_week, t.tags) ILIKE p_pattern;
END
$$;
--> statement-breakpoint
DROP FUNCTION trade_search_text(text, text, text, text, text, text, text[]);
