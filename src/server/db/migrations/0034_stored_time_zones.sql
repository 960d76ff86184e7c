-- Zones were taken when Node could read them, but PostgreSQL's list of zones is not Node's: Node still reads links
-- the time-zone database has dropped (US/Pacific-New, Canada/East-Saskatchewan), which PostgreSQL refused in every
-- statement that used the trader's zone, and any spelling of a name's case ('america/new_york'). Requests now take
-- only zones the database knows, spelled its way; the zones stored before are brought to the same: the database's
-- name of any case, the zone a dropped link pointed to, or else New York's (the default) for a trader, none for an
-- account's last import (its next import reads the trader's zone) and New York's for a prop firm's trading hours.
CREATE TEMP TABLE stored_zone_names ON COMMIT DROP AS
  SELECT DISTINCT ON (lower(name)) lower(name) AS folded, name FROM pg_timezone_names ORDER BY lower(name), name;--> statement-breakpoint
INSERT INTO stored_zone_names (folded, name)
  SELECT dropped.folded, dropped.name
  FROM (VALUES ('us/pacific-new', 'America/Los_Angeles'), ('canada/east-saskatchewan', 'America/Regina')) AS dropped(folded, name)
  WHERE NOT EXISTS (SELECT 1 FROM stored_zone_names z WHERE z.folded = dropped.folded);--> statement-breakpoint
UPDATE user_preferences p
  SET time_zone = coalesce((SELECT z.name FROM stored_zone_names z WHERE z.folded = lower(p.time_zone)), 'America/New_York')
  WHERE NOT EXISTS (SELECT 1 FROM stored_zone_names z WHERE z.name = p.time_zone);--> statement-breakpoint
UPDATE trading_accounts a
  SET import_time_zone = (SELECT z.name FROM stored_zone_names z WHERE z.folded = lower(a.import_time_zone))
  WHERE a.import_time_zone IS NOT NULL AND NOT EXISTS (SELECT 1 FROM stored_zone_names z WHERE z.name = a.import_time_zone);--> statement-breakpoint
UPDATE prop_rule_sets r
  SET rules = jsonb_set(
    r.rules,
    '{tradingHours,timeZone}',
    to_jsonb(coalesce((SELECT z.name FROM stored_zone_names z WHERE z.folded = lower(r.rules #>> '{tradingHours,timeZone}')), 'America/New_York'))
  )
  WHERE jsonb_typeof(r.rules -> 'tradingHours') = 'object'
    AND jsonb_typeof(r.rules #> '{tradingHours,timeZone}') = 'string'
    AND NOT EXISTS (SELECT 1 FROM stored_zone_names z WHERE z.name = r.rules #>> '{tradingHours,timeZone}');
