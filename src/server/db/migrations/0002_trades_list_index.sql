DROP INDEX "trades_user_date_idx";--> statement-breakpoint
DROP INDEX "trades_user_account_date_idx";--> statement-breakpoint
CREATE INDEX "trades_user_date_id_idx" ON "trades" USING btree ("user_id","trade_date" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "trades_user_account_date_id_idx" ON "trades" USING btree ("user_id","account_id","trade_date" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);