-- Issue 26: the reports' copy of a trader's trades (trades-cache.ts) is brought up to date by reading only the trades
-- that changed since the version it holds, not all of them again. The same statement triggers that bump the trader's
-- version (0016) now also write which trades each version changed (inserted, updated in a column the reports read,
-- deleted) into trade_changes, in the same transaction. The log is bounded per trader: `logged_after` says from which
-- version on it is complete (a copy older than that is read whole again), `logged_rows` how many rows it holds.
ALTER TABLE "trade_versions" ADD COLUMN "logged_after" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_versions" ADD COLUMN "logged_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Nothing was logged before this migration: a copy at any version up to now is read whole again.
UPDATE "trade_versions" SET "logged_after" = "version";--> statement-breakpoint
CREATE TABLE "trade_changes" (
	"user_id" text NOT NULL,
	"version" bigint NOT NULL,
	"trade_id" uuid NOT NULL,
	CONSTRAINT "trade_changes_pkey" PRIMARY KEY("user_id","version","trade_id")
);
--> statement-breakpoint
ALTER TABLE "trade_changes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
-- To the trader's version row rather than to the user: deleting a trader deletes their trades by cascade, and a
-- change logged then would point at a user already gone; the version row goes with the user and takes the log along.
ALTER TABLE "trade_changes" ADD CONSTRAINT "trade_changes_user_id_trade_versions_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."trade_versions"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "trade_changes_owner" ON "trade_changes" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON trade_changes TO edgebook_app;
--> statement-breakpoint
-- Bumps the versions of the traders of these changed trades (p_users[i] changed p_ids[i]) and logs the changes under
-- the new version. The version row is locked by the bump until the transaction ends, so one trader's log is written
-- by one transaction at a time, in version order. A statement changing more than 20,000 of a trader's trades is not
-- logged (a copy that old is read whole, as cheap then as the log), and a log that would grow past 20,000 rows is
-- emptied first: it holds the latest changes only, and `logged_after` moves up with what it drops.
CREATE FUNCTION log_trade_changes(p_users text[], p_ids uuid[]) RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  r record;
  max_rows constant integer := 20000;
BEGIN
  IF p_users IS NULL OR cardinality(p_users) = 0 THEN
    RETURN;
  END IF;
  FOR r IN
    SELECT c.user_id, array_agg(DISTINCT c.trade_id) AS ids
    FROM unnest(p_users, p_ids) AS c(user_id, trade_id)
    WHERE c.user_id IS NOT NULL
    GROUP BY c.user_id
    ORDER BY c.user_id
  LOOP
    DECLARE
      v_version bigint;
      v_rows integer;
      v_count integer := cardinality(r.ids);
    BEGIN
      UPDATE trade_versions v SET version = v.version + 1 WHERE v.user_id = r.user_id RETURNING v.version, v.logged_rows INTO v_version, v_rows;
      IF v_version IS NULL THEN
        -- A trader's first trades make their row (0016); one whose trades are gone (deleted with the user) gets none.
        IF NOT EXISTS (SELECT 1 FROM trades t WHERE t.user_id = r.user_id) THEN
          CONTINUE;
        END IF;
        INSERT INTO trade_versions (user_id, version, logged_after, logged_rows) VALUES (r.user_id, 1, 0, 0)
        ON CONFLICT (user_id) DO UPDATE SET version = trade_versions.version + 1
        RETURNING version, logged_rows INTO v_version, v_rows;
      END IF;
      IF v_count > max_rows THEN
        DELETE FROM trade_changes WHERE user_id = r.user_id;
        UPDATE trade_versions SET logged_after = v_version, logged_rows = 0 WHERE user_id = r.user_id;
        CONTINUE;
      END IF;
      IF v_rows + v_count > max_rows THEN
        DELETE FROM trade_changes WHERE user_id = r.user_id;
        UPDATE trade_versions SET logged_after = v_version - 1, logged_rows = v_count WHERE user_id = r.user_id;
      ELSE
        UPDATE trade_versions SET logged_rows = v_rows + v_count WHERE user_id = r.user_id;
      END IF;
      INSERT INTO trade_changes (user_id, version, trade_id) SELECT r.user_id, v_version, unnest(r.ids);
    END;
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_version_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM log_trade_changes(array_agg(user_id), array_agg(id)) FROM new_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_version_on_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM log_trade_changes(array_agg(user_id), array_agg(id)) FROM old_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only a change a report reads is logged: editing a trade's notes or link keeps the reports' copy. The trade's own
-- plan (entry and stop prices, dollar risk: issue 27's R figures) is read too, and was missing from 0016's list.
CREATE OR REPLACE FUNCTION trades_version_on_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM log_trade_changes(array_agg(side.user_id), array_agg(side.id))
  FROM old_rows o
  FULL JOIN new_rows n ON n.id = o.id
  CROSS JOIN LATERAL (VALUES (o.user_id, o.id), (n.user_id, n.id)) AS side(user_id, id)
  WHERE side.user_id IS NOT NULL
    AND (o.id IS NULL OR n.id IS NULL
      OR (o.user_id, o.account_id, o.trade_date, o.symbol, o.contract, o.side, o.trade_type, o.period, o.tags, o.status,
          o.pnl, o.commission, o.entry_time, o.exit_time, o.quantity, o.created_at, o.entry_price, o.stop_price, o.risk_amount)
         IS DISTINCT FROM
         (n.user_id, n.account_id, n.trade_date, n.symbol, n.contract, n.side, n.trade_type, n.period, n.tags, n.status,
          n.pnl, n.commission, n.entry_time, n.exit_time, n.quantity, n.created_at, n.entry_price, n.stop_price, n.risk_amount));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trades_version_on_truncate() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE trade_versions SET version = version + 1, logged_after = version + 1, logged_rows = 0;
  DELETE FROM trade_changes;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP FUNCTION bump_trade_versions(text[]);
