-- A fill belongs to its trade and references it by (trade_id, user_id), which already holds the fill to an existing user
-- and deletes it with the user's trades: its own reference to the user only cost a check per fill on every import.
ALTER TABLE "trade_fills" DROP CONSTRAINT IF EXISTS "trade_fills_user_id_user_id_fk";
