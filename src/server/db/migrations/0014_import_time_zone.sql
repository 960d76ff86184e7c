-- Issue 24, point 3: the zone the trader last read an import's times in, remembered per trading account (null until
-- a first import). The table's grants to edgebook_app and its owner policy already cover the new column.
ALTER TABLE "trading_accounts" ADD COLUMN "import_time_zone" text;
