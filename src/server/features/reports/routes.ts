import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { breakdownQuery, calendarQuery, distributionQuery, reportFilter, rQuery } from '../../../contract/reports';
import type { AppDeps, AppEnv } from '../../http/context';
import { compareQuery } from '../../../contract/report-compare';
import { monthlyReviewQuery } from '../../../contract/monthly-review';
import { readFilterQuery, readParams, readQuery } from '../../http/validate';
import { traderIdParam } from '../../../contract/mentors';
import type { ReportFilter } from '../../../domain/reports';
import type { ReportViewer } from '../../core/engine/scope';
import { mentorLook } from '../../core/mentors/gate';
import { describeReason } from '../../db/unavailable';
import { reportsService } from './service';
import { tradesCacheOf } from '../../core/engine/trades-cache';

/** Whose figures a request reads, and how: the trader's own, or a mentor's look at a trader who shared accounts. */
interface ReportReader {
  userId: string;
  /** The filter a request asked for, as the engine should read it (for a mentor, narrowed to the granted accounts). */
  narrow: (filter: ReportFilter) => ReportFilter;
  viewer?: ReportViewer;
}

/**
 * The reports: every route reads the filter model from its query (lists as repeated parameters), then asks `readerOf`
 * whose figures they are. The query is read first, so a malformed one is the same 400 for the trader and a mentor.
 */
function reportGroup({ database }: AppDeps, readerOf: (c: Context<AppEnv>) => Promise<ReportReader>) {
  return new Hono<AppEnv>()
    .get('/overview', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.overview(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/excursions', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.excursions(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/r', async (c) => {
      const { filter, ...search } = readFilterQuery(c, rQuery, ['q', 'exclude']);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.r(database, userId, narrow(filter), new Date(), search, viewer));
    })
    .get('/mistakes', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.mistakes(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/playbooks', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.playbooks(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/equity', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.equity(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/breakdown', async (c) => {
      const { by, filter } = readFilterQuery(c, breakdownQuery, ['by']);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.breakdown(database, userId, narrow(filter), by, new Date(), viewer));
    })
    .get('/compare', async (c) => {
      const { a, b, c: third, d, by } = readQuery(c, compareQuery);
      const { userId, narrow, viewer } = await readerOf(c);
      const filters = [a, b, third, d].filter((filter) => filter !== undefined).map(narrow);
      return c.json(await reportsService.compare(database, userId, filters, new Date(), by, viewer));
    })
    .get('/monthly-review', async (c) => {
      const { month, filter } = readFilterQuery(c, monthlyReviewQuery, ['month']);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.monthlyReview(database, userId, narrow(filter), month, new Date(), viewer));
    })
    .get('/depth', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.depth(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/heatmap', async (c) => {
      const filter = readFilterQuery(c, reportFilter);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.heatmap(database, userId, narrow(filter), new Date(), viewer));
    })
    .get('/calendar', async (c) => {
      const { year, filter } = readFilterQuery(c, calendarQuery, ['year']);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.calendar(database, userId, narrow(filter), year, new Date(), viewer));
    })
    .get('/distribution', async (c) => {
      const { of, filter } = readFilterQuery(c, distributionQuery, ['of']);
      const { userId, narrow, viewer } = await readerOf(c);
      return c.json(await reportsService.distribution(database, userId, narrow(filter), of, new Date(), viewer));
    })
    .get('/options', async (c) => {
      const { userId, viewer } = await readerOf(c);
      return c.json(await reportsService.options(database, userId, new Date(), viewer));
    });
}

const asked = (filter: ReportFilter) => filter;

/** /api/reports: the signed-in trader's own reports. */
export function reportRoutes(deps: AppDeps) {
  return reportGroup(deps, (c) => Promise.resolve({ userId: c.var.user.id, narrow: asked }));
}

/**
 * /api/mentor/:traderId/reports: every report of a trader as their mentor reads it, read only. A live grant is checked
 * first (without one, the 404 of an unknown trader, as every mentor route answers); each filter is limited to the
 * granted accounts (an account asked that is not granted is the 404 of an account that does not exist), and the engine
 * reads with the mentor as its viewer, so row-level security shows the shared accounts only.
 */
export function mentorReportRoutes(deps: AppDeps) {
  return reportGroup(deps, async (c) => {
    const { traderId } = readParams(c, traderIdParam);
    const { viewer, narrow } = await mentorLook(deps.database, traderId, c.var.user.id);
    return { userId: traderId, narrow, viewer };
  });
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
