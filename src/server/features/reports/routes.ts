import { Hono, type MiddlewareHandler } from 'hono';
import { breakdownQuery, calendarQuery, distributionQuery, reportFilter, rQuery } from '../../../contract/reports';
import type { AppDeps, AppEnv } from '../../http/context';
import { compareQuery } from '../../../contract/report-compare';
import { monthlyReviewQuery } from '../../../contract/monthly-review';
import { readFilterQuery, readQuery } from '../../http/validate';
import { describeReason } from '../../db/unavailable';
import { reportsService } from './service';
import { tradesCacheOf } from '../../core/engine/trades-cache';

/** The reports: every route reads the filter model from its query (lists as repeated parameters). */
export function reportRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/overview', async (c) => c.json(await reportsService.overview(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/excursions', async (c) => c.json(await reportsService.excursions(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/r', async (c) => {
      const { filter, ...narrow } = readFilterQuery(c, rQuery, ['q', 'exclude']);
      return c.json(await reportsService.r(database, c.var.user.id, filter, new Date(), narrow));
    })
    .get('/mistakes', async (c) => c.json(await reportsService.mistakes(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/playbooks', async (c) => c.json(await reportsService.playbooks(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/equity', async (c) => c.json(await reportsService.equity(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/breakdown', async (c) => {
      const { by, filter } = readFilterQuery(c, breakdownQuery, ['by']);
      return c.json(await reportsService.breakdown(database, c.var.user.id, filter, by, new Date()));
    })
    .get('/compare', async (c) => {
      const { a, b, c: third, d, by } = readQuery(c, compareQuery);
      const filters = [a, b, third, d].filter((filter) => filter !== undefined);
      return c.json(await reportsService.compare(database, c.var.user.id, filters, new Date(), by));
    })
    .get('/monthly-review', async (c) => {
      const { month, filter } = readFilterQuery(c, monthlyReviewQuery, ['month']);
      return c.json(await reportsService.monthlyReview(database, c.var.user.id, filter, month, new Date()));
    })
    .get('/depth', async (c) => c.json(await reportsService.depth(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/heatmap', async (c) => c.json(await reportsService.heatmap(database, c.var.user.id, readFilterQuery(c, reportFilter), new Date())))
    .get('/calendar', async (c) => {
      const { year, filter } = readFilterQuery(c, calendarQuery, ['year']);
      return c.json(await reportsService.calendar(database, c.var.user.id, filter, year, new Date()));
    })
    .get('/distribution', async (c) => {
      const { of, filter } = readFilterQuery(c, distributionQuery, ['of']);
      return c.json(await reportsService.distribution(database, c.var.user.id, filter, of, new Date()));
    })
    .get('/options', async (c) => c.json(await reportsService.options(database, c.var.user.id, new Date())));
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After a write that succeeded, the writer's reports copy catches up with it before the answer goes (trades-cache.ts
 * catchUp): every write, since trades change through many routes (the Trade Log, imports, syncs,
 * playbooks' ticks); for a trader without a copy in this process it costs nothing, and otherwise one indexed read
 * when nothing of theirs changed.
 */
export function catchUpReports({ database, logger }: AppDeps): MiddlewareHandler<AppEnv> {
  const cache = tradesCacheOf(database);
  return async (c, next) => {
    await next();
    if (READS.has(c.req.method) || c.res.status >= 400) return;
    const userId = c.var.user?.id;
    if (!userId) return;
    await cache
      .catchUp(userId)
      .catch((error: unknown) => logger.warn({ reason: describeReason(error) }, 'the reports copy did not catch up with a write'));
  };
}
