-- A mentor reads a trader's shared accounts in a transaction of their own (withMentor in db/client.ts): the role
-- edgebook_mentor, app.user_id set to the trader and app.mentor_id to the mentor. Two walls stand behind the server's
-- own checks, so that a read that forgets to narrow to the shared accounts still shows nothing else:
--   - the role may read only the tables below and write nothing but a new comment (its grants);
--   - a restrictive policy on every owned table for that role: rows of an account, or of a trade of an account, that is
--     in a live grant (accepted, not revoked) of this trader to the mentor named by app.mentor_id (none without one);
--     the few tables a shared trade needs around it (the trades' version, playbooks, the zone, trade vocabulary);
--     nothing of any other table; and no insert or update at all, but for the mentor's own comment under a live grant.
-- The policies are the mentor role's alone: the trader's own requests (edgebook_app) plan and run exactly as before.
-- A policy that tested app.mentor_id for every role cost the trader's reads too: a full read of a trader's fills took
-- about a fifth longer, and the planner halved its row estimates of the tables checked through their trade.
-- Roles are the server's, not a database's: another Edgebook database on the same server may have created it already.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'edgebook_mentor') THEN
    CREATE ROLE edgebook_mentor NOLOGIN;
  END IF;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;--> statement-breakpoint
-- The user that runs the migrations, who is the one the server connects as, must be able to switch to the role.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'edgebook_mentor', 'MEMBER') THEN
    EXECUTE format('GRANT edgebook_mentor TO %I', current_user);
  END IF;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;--> statement-breakpoint
-- The mentor of this transaction, or null for a trader's own (an unset or empty setting).
CREATE FUNCTION mentor_viewer() RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT nullif(current_setting('app.mentor_id', true), '')
$$;--> statement-breakpoint
-- The accounts this trader shares with this transaction's mentor through live grants; empty without a mentor. It reads
-- the grants with the caller's rights (row-level security applies to it as to any query), once per statement where a
-- policy calls it as a sub-select: a sub-select, not a call per row.
CREATE FUNCTION mentor_granted_accounts() RETURNS uuid[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT a), '{}')
  FROM mentor_grants g, unnest(g.account_ids) a
  WHERE g.user_id = current_setting('app.user_id', true)
    AND g.mentor_user_id = nullif(current_setting('app.mentor_id', true), '')
    AND g.accepted_at IS NOT NULL AND g.revoked_at IS NULL
$$;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO edgebook_mentor;--> statement-breakpoint
GRANT SELECT ON
  trading_accounts, trades, trade_fills, trade_excursions, trade_reflections, trade_rule_checks, broker_stops,
  funding_payments, attachments, notes, fee_schedules, risk_defaults, prop_rule_sets, prop_ledger_entries,
  trade_versions, playbooks, playbook_rules, user_trade_preferences, mentor_grants, mentor_comments, economic_events
  TO edgebook_mentor;--> statement-breakpoint
-- Of the preferences, only what figures need: the zone days are counted in and how trading days are filed.
GRANT SELECT (id, user_id, time_zone, trading_day) ON user_preferences TO edgebook_mentor;--> statement-breakpoint
GRANT INSERT ON mentor_comments TO edgebook_mentor;--> statement-breakpoint
-- Rows of a shared account. A mentor inserts, changes or deletes none of any table's rows (the role has no grant to;
-- the policies' checks refuse it too), but for their comment.
CREATE POLICY "trading_accounts_mentor" ON "trading_accounts" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "trades_mentor" ON "trades" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "fee_schedules_mentor" ON "fee_schedules" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "prop_rule_sets_mentor" ON "prop_rule_sets" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "prop_ledger_entries_mentor" ON "prop_ledger_entries" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
-- A default of every account (no account) prices the shared trades' R too.
CREATE POLICY "risk_defaults_mentor" ON "risk_defaults" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND (account_id IS NULL OR account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
-- Rows of a trade of a shared account (an attachment or a note of anything else than a trade: none).
CREATE POLICY "trade_fills_mentor" ON "trade_fills" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = trade_fills.user_id AND t.id = trade_fills.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "trade_excursions_mentor" ON "trade_excursions" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = trade_excursions.user_id AND t.id = trade_excursions.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "trade_reflections_mentor" ON "trade_reflections" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = trade_reflections.user_id AND t.id = trade_reflections.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "trade_rule_checks_mentor" ON "trade_rule_checks" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = trade_rule_checks.user_id AND t.id = trade_rule_checks.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "broker_stops_mentor" ON "broker_stops" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = broker_stops.user_id AND t.id = broker_stops.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "funding_payments_mentor" ON "funding_payments" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = funding_payments.user_id AND t.id = funding_payments.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "attachments_mentor" ON "attachments" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = attachments.user_id AND t.id = attachments.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "notes_mentor" ON "notes" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM trades t WHERE t.user_id = notes.user_id AND t.id = notes.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[])))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
-- What a shared trade needs around it, read whole: the trades' version, the playbooks and their rules (names and what
-- a trade ticked), the trader's trade vocabulary (which tags are mistakes) and the zone (its columns are granted apart).
CREATE POLICY "trade_versions_mentor" ON "trade_versions" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "playbooks_mentor" ON "playbooks" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "playbook_rules_mentor" ON "playbook_rules" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "user_trade_preferences_mentor" ON "user_trade_preferences" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "user_preferences_mentor" ON "user_preferences" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
-- The mentor's own live grants, and the comments under them (theirs and the trader's replies). The one write: the
-- mentor's own comment, not a reply, under their live grant, on a trading day or on a trade of a shared account.
CREATE POLICY "mentor_grants_mentor" ON "mentor_grants" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND mentor_user_id = (SELECT mentor_viewer()) AND accepted_at IS NOT NULL AND revoked_at IS NULL)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "mentor_comments_mentor" ON "mentor_comments" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND EXISTS (SELECT 1 FROM mentor_grants g WHERE g.user_id = mentor_comments.user_id AND g.id = mentor_comments.grant_id AND g.mentor_user_id = (SELECT mentor_viewer()) AND g.accepted_at IS NOT NULL AND g.revoked_at IS NULL))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND author_id = (SELECT mentor_viewer()) AND parent_id IS NULL
    AND EXISTS (SELECT 1 FROM mentor_grants g WHERE g.user_id = mentor_comments.user_id AND g.id = mentor_comments.grant_id AND g.mentor_user_id = (SELECT mentor_viewer()) AND g.accepted_at IS NOT NULL AND g.revoked_at IS NULL)
    AND (trade_id IS NULL OR EXISTS (SELECT 1 FROM trades t WHERE t.user_id = mentor_comments.user_id AND t.id = mentor_comments.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))));--> statement-breakpoint
-- Nothing of the rest: the trader's other journal, settings, connections and keys, chat, share links, saved views.
CREATE POLICY "trade_day_rollups_mentor" ON "trade_day_rollups" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "trade_changes_mentor" ON "trade_changes" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "tasks_mentor" ON "tasks" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "task_completion_mentor" ON "task_completion" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "profiles_mentor" ON "profiles" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "quick_links_mentor" ON "quick_links" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "chat_sessions_mentor" ON "chat_sessions" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "chat_messages_mentor" ON "chat_messages" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "note_folders_mentor" ON "note_folders" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "tags_mentor" ON "tags" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "note_tags_mentor" ON "note_tags" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "ai_usage_mentor" ON "ai_usage" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "import_account_links_mentor" ON "import_account_links" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "import_column_mappings_mentor" ON "import_column_mappings" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "broker_connections_mentor" ON "broker_connections" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "broker_accounts_mentor" ON "broker_accounts" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "broker_fills_mentor" ON "broker_fills" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "price_bars_mentor" ON "price_bars" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "bar_uploads_mentor" ON "bar_uploads" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "share_links_mentor" ON "share_links" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
CREATE POLICY "saved_views_mentor" ON "saved_views" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);
