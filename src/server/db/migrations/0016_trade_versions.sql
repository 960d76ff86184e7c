-- Issue 26: the reports read a trader's trades once and keep them in the server's memory until they change. A
-- statement-level trigger on trades bumps the trader's version in the same transaction as every write, whatever
-- wrote it (the API, an import, a re-file of trading days, psql), so a server process (one of several) knows its
-- copy is current by reading one row.
CREATE TABLE "trade_versions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trade_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "trade_versions" ADD CONSTRAINT "trade_versions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "trade_versions_owner" ON "trade_versions" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON trade_versions TO edgebook_app;
--> statement-breakpoint
-- Bumps the versions of these traders. A trader's row is made by the first statement that leaves them with trades;
-- one whose trades are all gone keeps theirs (bumped), so a cached copy with trades in it is never taken as current.
-- Only traders who still have trades get a new row: deleting a trader cascades to their trades, and a row made then
-- would point at a trader who no longer exists.
CREATE FUNCTION bump_trade_versions(p_users text[]) RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF p_users IS NULL OR cardinality(p_users) = 0 THEN
    RETURN;
  END IF;
  UPDATE trade_versions v SET version = v.version + 1 WHERE v.user_id = ANY (p_users);
  INSERT INTO trade_versions (user_id, version)
  SELECT DISTINCT u.user_id, 1 FROM unnest(p_users) AS u(user_id)
  WHERE NOT EXISTS (SELECT 1 FROM trade_versions v WHERE v.user_id = u.user_id)
    AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = u.user_id)
  ON CONFLICT (user_id) DO UPDATE SET version = trade_versions.version + 1;
END
$$;
--> statement-breakpoint
CREATE FUNCTION trades_version_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM bump_trade_versions(array_agg(DISTINCT user_id)) FROM new_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION trades_version_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM bump_trade_versions(array_agg(DISTINCT user_id)) FROM old_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only a change a report reads bumps the version: editing a trade's notes or link keeps the reports' copy.
CREATE FUNCTION trades_version_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM bump_trade_versions(array_agg(DISTINCT side.user_id))
  FROM old_rows o
  FULL JOIN new_rows n ON n.id = o.id
  CROSS JOIN LATERAL (VALUES (o.user_id), (n.user_id)) AS side(user_id)
  WHERE side.user_id IS NOT NULL
    AND (o.id IS NULL OR n.id IS NULL
      OR (o.user_id, o.account_id, o.trade_date, o.symbol, o.contract, o.side, o.trade_type, o.period, o.tags, o.status,
          o.pnl, o.commission, o.entry_time, o.exit_time, o.quantity, o.created_at)
         IS DISTINCT FROM
         (n.user_id, n.account_id, n.trade_date, n.symbol, n.contract, n.side, n.trade_type, n.period, n.tags, n.status,
          n.pnl, n.commission, n.entry_time, n.exit_time, n.quantity, n.created_at));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trades_version_insert AFTER INSERT ON trades
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_version_on_insert();
--> statement-breakpoint
CREATE TRIGGER trades_version_update AFTER UPDATE ON trades
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_version_on_update();
--> statement-breakpoint
CREATE TRIGGER trades_version_delete AFTER DELETE ON trades
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION trades_version_on_delete();
--> statement-breakpoint
CREATE FUNCTION trades_version_on_truncate() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE trade_versions SET version = version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trades_version_truncate AFTER TRUNCATE ON trades FOR EACH STATEMENT EXECUTE FUNCTION trades_version_on_truncate();
--> statement-breakpoint
INSERT INTO trade_versions (user_id, version) SELECT DISTINCT user_id, 1 FROM trades;
