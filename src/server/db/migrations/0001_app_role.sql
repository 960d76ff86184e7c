-- The app queries owned tables as edgebook_app, a role that owns nothing, so row-level security applies to it
-- (table owners bypass RLS). Each request transaction runs `SET LOCAL ROLE edgebook_app` and sets app.user_id.
-- Roles are cluster-wide: another Edgebook database on the same server may have created it already.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'edgebook_app') THEN
    CREATE ROLE edgebook_app NOLOGIN;
  END IF;
EXCEPTION
  -- Another database's first migration created it at the same moment: the role exists, as wanted.
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;--> statement-breakpoint
-- A non-superuser that runs the migrations must be able to switch to the role.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'edgebook_app', 'MEMBER') THEN
    EXECUTE format('GRANT edgebook_app TO %I', current_user);
  END IF;
END
$$;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO edgebook_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON
  trading_accounts, trades, tasks, task_completion, profiles, user_preferences, user_trade_preferences,
  quick_links, chat_sessions, chat_messages, note_folders, tags, notes, note_tags, attachments
  TO edgebook_app;
