-- Notes layer (issue 10). Hand-edited after drizzle-kit: SET NULL names its column, so that deleting a folder or a
-- trade clears only that column of the note, not its user_id.
ALTER TABLE "attachments" DROP CONSTRAINT "attachments_note_id_notes_id_fk";
--> statement-breakpoint
ALTER TABLE "attachments" DROP CONSTRAINT "attachments_trade_id_trades_id_fk";
--> statement-breakpoint
ALTER TABLE "notes" DROP CONSTRAINT "notes_folder_id_note_folders_id_fk";
--> statement-breakpoint
ALTER TABLE "notes" DROP CONSTRAINT "notes_trade_id_trades_id_fk";
--> statement-breakpoint
DROP INDEX "notes_user_updated_idx";--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "journal_date" date;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(content, '')), 'B')) STORED;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_note_owner_fk" FOREIGN KEY ("note_id","user_id") REFERENCES "public"."notes"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_folder_owner_fk" FOREIGN KEY ("folder_id","user_id") REFERENCES "public"."note_folders"("id","user_id") ON DELETE SET NULL ("folder_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE SET NULL ("trade_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "note_tags_user_tag_idx" ON "note_tags" USING btree ("user_id","tag_id","note_id");--> statement-breakpoint
CREATE INDEX "notes_user_updated_id_idx" ON "notes" USING btree ("user_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "notes_user_folder_updated_id_idx" ON "notes" USING btree ("user_id","folder_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "notes_user_journal_date_idx" ON "notes" USING btree ("user_id","journal_date") WHERE "notes"."journal_date" is not null;--> statement-breakpoint
CREATE INDEX "notes_search_idx" ON "notes" USING gin ("search");--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_one_owner_row" CHECK (num_nonnulls("attachments"."note_id", "attachments"."trade_id") = 1);--> statement-breakpoint
ALTER TABLE "quick_links" ADD CONSTRAINT "quick_links_http_url" CHECK ("quick_links"."url" ~* '^https?://');