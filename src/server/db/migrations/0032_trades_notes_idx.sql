-- Issue 27: the Trade Log's search in R matches the trades in memory, all but their notes, which the server asks the
-- database for (src/server/features/reports/search.ts). Most trades have no notes: with this index only the trader's
-- trades that have some are read, not every trade (100,000 trades without notes: ~40 ms a search read them all).
CREATE INDEX "trades_user_notes_idx" ON "trades" USING btree ("user_id") WHERE "trades"."notes" <> '';
