import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams, readQuery } from '../../http/validate';
import { journalDateParam, journalDayQuery, journalDaysQuery, journalNoteInput } from './journal-schemas';
import { journalService } from './journal-service';

/** /api/journal: the daily journal. */
export function journalRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/days', async (c) => {
      const { date, account } = readQuery(c, journalDaysQuery);
      return c.json(await journalService.days(database, c.var.user.id, date, account));
    })
    .get('/:date', async (c) =>
      c.json(await journalService.day(database, c.var.user.id, readParams(c, journalDateParam).date, readQuery(c, journalDayQuery).account)),
    )
    .put('/:date', async (c) => {
      const { date } = readParams(c, journalDateParam);
      const { content, base_updated_at } = await readJson(c, journalNoteInput);
      return c.json(await journalService.save(database, c.var.user.id, date, content, base_updated_at));
    });
}
