-- When a mentor read a trader's screens: one row per mentor per trader per day (UTC), its first and last read and how
-- many there were, written by one upsert as the mentor's request answers. The trader owns the rows (the header's
-- notifications and the list of who viewed); seen_at is when the trader last looked at that day's views. The row is
-- written in the trader's own transaction, not the mentor's: the mentor role stays one that writes nothing but its
-- comment, and the statement itself adds a row only while the trader's live grant to that mentor stands.
CREATE TABLE "mentor_views" (
	"user_id" text NOT NULL,
	"mentor_id" text NOT NULL,
	"day" date NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"view_count" integer DEFAULT 1 NOT NULL,
	"seen_at" timestamp with time zone,
	CONSTRAINT "mentor_views_user_id_mentor_id_day_pk" PRIMARY KEY("user_id","mentor_id","day"),
	CONSTRAINT "mentor_views_count" CHECK ("mentor_views"."view_count" > 0)
);
--> statement-breakpoint
ALTER TABLE "mentor_views" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mentor_views" ADD CONSTRAINT "mentor_views_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_views" ADD CONSTRAINT "mentor_views_mentor_id_user_id_fk" FOREIGN KEY ("mentor_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mentor_views_user_last_idx" ON "mentor_views" USING btree ("user_id","last_seen_at");--> statement-breakpoint
CREATE POLICY "mentor_views_owner" ON "mentor_views" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON mentor_views TO edgebook_app;--> statement-breakpoint
-- A mentor's own transaction reads none of the log and writes none of it (the role has no grant on it either).
CREATE POLICY "mentor_views_mentor" ON "mentor_views" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND false)
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);--> statement-breakpoint
-- Images a mentor may open: a shared trade's (as before), a note's on a shared trade, and a journal note's while a live
-- grant shares the journal: the same notes the notes policy shows the mentor.
DROP POLICY "attachments_mentor" ON "attachments";--> statement-breakpoint
CREATE POLICY "attachments_mentor" ON "attachments" AS RESTRICTIVE FOR ALL TO edgebook_mentor
  USING (user_id = current_setting('app.user_id', true) AND (
    EXISTS (SELECT 1 FROM trades t WHERE t.user_id = attachments.user_id AND t.id = attachments.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
    OR EXISTS (SELECT 1 FROM notes n WHERE n.user_id = attachments.user_id AND n.id = attachments.note_id AND (
      (n.journal_date IS NOT NULL AND (SELECT mentor_shares_journal()))
      OR EXISTS (SELECT 1 FROM trades t WHERE t.user_id = n.user_id AND t.id = n.trade_id AND t.account_id = ANY ((SELECT mentor_granted_accounts())::uuid[]))
    ))
  ))
  WITH CHECK (user_id = current_setting('app.user_id', true) AND false);
