import { Hono } from 'hono';
import type { Context } from 'hono';
import type { z } from 'zod';
import { readReportFilterParams } from '../../../domain/reports/filter';
import { breakdownQuery, calendarQuery, distributionQuery, normalizeReportFilter, reportFilter, reportFilterFields } from '../../../contract/reports';
import type { AppDeps, AppEnv } from '../../http/context';
import { assertStorable, parseOrThrow } from '../../http/validate';
import { reportsService } from './service';

/**
 * The query as the filter's schema reads it: lists from repeated parameters (?symbol=NQ&symbol=ES), the rest from the
 * last value, and a route's own parameters (`by`, `year`, `of`) beside them.
 */
export function readFilterQuery<S extends z.ZodType>(c: Context, schema: S, own: readonly string[] = []): z.infer<S> {
  const url = new URL(c.req.url);
  const raw: Record<string, unknown> = readReportFilterParams(url.searchParams);
  for (const key of own) {
    const value = url.searchParams.get(key);
    if (value !== null) raw[key] = value;
  }
  assertStorable(raw, 'query');
  return parseOrThrow(schema, raw);
}

/** A route's query with the filter's fields normalized into the domain's filter. */
function readWithFilter<S extends z.ZodObject<typeof reportFilterFields>>(c: Context, schema: S, own: readonly string[]) {
  const parsed = readFilterQuery(c, schema, own) as z.infer<S> & Record<string, unknown>;
  const filter = parseOrThrow(reportFilter, Object.fromEntries(Object.keys(reportFilterFields).map((k) => [k, parsed[k]])));
  return { parsed, filter };
}

export function reportRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/overview', async (c) => c.json(await reportsService.overview(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/equity', async (c) => c.json(await reportsService.equity(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/breakdown', async (c) => {
      const { parsed, filter } = readWithFilter(c, breakdownQuery, ['by']);
      return c.json(await reportsService.breakdown(database, c.var.user.id, filter, parsed.by, new Date()));
    })
    .get('/heatmap', async (c) => c.json(await reportsService.heatmap(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/calendar', async (c) => {
      const { parsed, filter } = readWithFilter(c, calendarQuery, ['year']);
      return c.json(await reportsService.calendar(database, c.var.user.id, filter, parsed.year, new Date()));
    })
    .get('/distribution', async (c) => {
      const { parsed, filter } = readWithFilter(c, distributionQuery, ['of']);
      return c.json(await reportsService.distribution(database, c.var.user.id, filter, parsed.of, new Date()));
    })
    .get('/options', async (c) => c.json(await reportsService.options(database, c.var.user.id, new Date())));
}

export { normalizeReportFilter };
