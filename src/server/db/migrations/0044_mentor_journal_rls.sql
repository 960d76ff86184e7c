-- A mentor reads the trader's daily journal only while a live grant to them says so (share_journal): the journal's
-- notes (those with a journal date) and the day totals of the shared accounts, in the mentor's own transaction. Without
-- such a grant the policies show neither, whatever a read asks.
CREATE FUNCTION mentor_shares_journal() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT EXISTS (
    SELECT 1 FROM mentor_grants g
    WHERE g.user_id = current_setting('app.user_id', true)
      AND g.mentor_user_id = nullif(current_setting('app.mentor_id', true), '')
      AND g.accepted_at IS NOT NULL AND g.revoked_at IS NULL AND g.share_journal
  )
$$;--> statement-breakpoint
DROP POLICY "notes_mentor" ON "notes";--> statement-breakpoint
CREATE POLICY "notes_mentor" ON "notes" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND (
    EXISTS (SELECT 1 FROM trades t WHERE t.user_id = notes.user_id AND t.id = notes.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
    OR (journal_date IS NOT NULL AND (SELECT mentor_shares_journal()))
  ))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
DROP POLICY "trade_day_rollups_mentor" ON "trade_day_rollups";--> statement-breakpoint
CREATE POLICY "trade_day_rollups_mentor" ON "trade_day_rollups" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND (SELECT mentor_shares_journal()) AND scope = ANY ((SELECT mentor_granted_accounts())::text[]))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
GRANT SELECT ON trade_day_rollups TO edgebook_mentor;
