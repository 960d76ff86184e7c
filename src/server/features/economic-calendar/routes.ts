import { Hono } from 'hono';
import type { EconomicCalendarResponse } from '../../../contract/economic-calendar';
import type { AppDeps, AppEnv } from '../../http/context';
import { createEconomicCalendar } from './service';

/** /api/economic-calendar: the configured feed's week, or `{ source: 'sample' }` when there is no feed. */
export function economicCalendarRoutes({ config, logger }: AppDeps) {
  const url = config.ECONOMIC_CALENDAR_URL;
  const calendar = url ? createEconomicCalendar({ url, logger }) : null;
  return new Hono<AppEnv>().get('/', async (c) => c.json<EconomicCalendarResponse>(calendar ? await calendar.week() : { source: 'sample' }));
}
