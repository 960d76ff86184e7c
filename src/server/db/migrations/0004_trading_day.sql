ALTER TABLE "user_preferences" ADD COLUMN "trading_day" text DEFAULT 'exchange' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_trading_day" CHECK ("user_preferences"."trading_day" in ('exchange', 'calendar'));--> statement-breakpoint
-- Traders who imported before this setting existed have their imported trades filed by calendar day: they keep that
-- rule (switching to the exchange's day in the settings re-files them), so no stored day moves under them.
INSERT INTO "user_preferences" ("user_id", "trading_day")
SELECT DISTINCT "user_id", 'calendar' FROM "trades" WHERE "import_source" IS NOT NULL AND "entry_time" IS NOT NULL
ON CONFLICT ("user_id") DO UPDATE SET "trading_day" = 'calendar';
