import { Hono } from 'hono';
import { AiError, sseResponse, wantsEventStream } from '../../ai';
import type { AnalyzeResult } from '../../../contract/reflections';
import type { AppDeps, AppEnv } from '../../http/context';
import { HttpError } from '../../http/errors';
import { readJson, readParams, readQuery } from '../../http/validate';
import { analyzeInput, overridePatch, reflectionsQuery, tradeIdParam } from './schemas';
import { ANALYSIS_ERRORS, reflectionsService } from './service';

/** GET /api/reflections, GET /api/reflections/summary, PATCH /api/reflections/:tradeId. */
export function reflectionRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await reflectionsService.page(database, c.var.user.id, readQuery(c, reflectionsQuery), new Date())))
    .get('/summary', async (c) => c.json(await reflectionsService.summary(database, c.var.user.id, readQuery(c, reflectionsQuery), new Date())))
    .patch('/:tradeId', async (c) => {
      const { tradeId } = readParams(c, tradeIdParam);
      return c.json(await reflectionsService.patch(database, c.var.user.id, tradeId, await readJson(c, overridePatch)));
    });
}

/**
 * POST /api/analyze-reflections (served by this server itself, not by a second one). With
 * `Accept: text/event-stream` it streams `{type: 'progress'}` events and then `{type: 'result', report}`; otherwise it
 * answers the spec's `{success, analysis}` with the report beside it.
 */
export function analyzeReflectionsRoutes({ database, ai, logger }: AppDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const input = await readJson(c, analyzeInput);
    const userId = c.var.user.id;
    const now = new Date();
    if (!wantsEventStream(c)) {
      const report = await reflectionsService.analyze(database, ai, userId, input, now, { signal: c.req.raw.signal });
      return c.json({ success: true, analysis: report.analysis, report } satisfies AnalyzeResult);
    }
    return sseResponse(c, async (sse) => {
      try {
        const report = await reflectionsService.analyze(database, ai, userId, input, now, {
          signal: sse.signal,
          progress: (p) => sse.send({ type: 'progress', ...p }),
        });
        await sse.send({ type: 'result', report });
      } catch (error) {
        if (error instanceof AiError && error.kind === 'aborted') return;
        if (error instanceof HttpError) {
          await sse.send({ type: 'error', status: error.status, message: error.message });
          return;
        }
        logger.error({ err: error }, 'reflections analysis failed');
        await sse.send({ type: 'error', status: 500, message: ANALYSIS_ERRORS.analysis });
      }
    });
  });
}
