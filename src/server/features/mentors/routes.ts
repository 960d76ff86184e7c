import { Hono } from 'hono';
import {
  mentorAcceptInput,
  mentorAttachmentParam,
  mentorCommentIdParam,
  mentorCommentInput,
  mentorGrantIdParam,
  mentorInviteInput,
  mentorJournalDayParam,
  mentorJournalQuery,
  mentorReplyInput,
  mentorTradeParam,
  mentorTradesQuery,
  traderIdParam,
} from '../../../contract/mentors';
import { journalDayQuery } from '../../../contract/journal';
import { reflectionsQuery } from '../../../contract/reflections';
import type { AppDeps, AppEnv } from '../../http/context';
import { sendImage } from '../../http/image-upload';
import { createRateLimiter } from '../../http/rate-limit';
import { readFilterQuery, readJson, readParams, readQuery } from '../../http/validate';
import { mentorsService } from './service';
import { mentorViews } from './views';

const TRADES_OWN = ['limit', 'offset'] as const;

/**
 * Invitations tried per signed-in user: a burst of 30, then one every 2 seconds. With 256 random bits a guess cannot
 * succeed anyway; the limit keeps a script from making the lookups cost the server.
 */
export const ACCEPT_RATE = { capacity: 30, refillMs: 2_000 };

/** /api/mentor-grants: the signed-in trader's invitations. */
export function mentorGrantRoutes({ database, mailer, config }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await mentorsService.list(database, c.var.user.id)))
    .post('/', async (c) => {
      const input = await readJson(c, mentorInviteInput);
      const { user } = c.var;
      return c.json(await mentorsService.invite(database, mailer, user.id, user.name || user.email, input, config.baseUrl), 201);
    })
    .delete('/:id', async (c) => {
      await mentorsService.revoke(database, c.var.user.id, readParams(c, mentorGrantIdParam).id, new Date());
      return c.body(null, 204);
    });
}

/** /api/mentor-comments: what the trader's mentors wrote, their replies, and what is new. */
export function mentorCommentRoutes({ database, mailer, logger, config }: AppDeps) {
  const mail = { mailer, logger, baseUrl: config.baseUrl };
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await mentorsService.traderComments(database, c.var.user.id)))
    .post('/seen', async (c) => {
      await mentorsService.markSeen(database, c.var.user.id, new Date());
      return c.body(null, 204);
    })
    .post('/:id/reply', async (c) => {
      const { id } = readParams(c, mentorCommentIdParam);
      const { body } = await readJson(c, mentorReplyInput);
      const { user } = c.var;
      return c.json(await mentorsService.reply(database, mail, { id: user.id, name: user.name || user.email }, id, body), 201);
    });
}

/** /api/mentor-views: which of the trader's mentors viewed their screens, and when; what is new. */
export function mentorViewRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await mentorsService.traderViews(database, c.var.user.id, new Date())))
    .post('/seen', async (c) => {
      await mentorsService.markViewsSeen(database, c.var.user.id, new Date());
      return c.body(null, 204);
    });
}

/**
 * /api/mentor: the signed-in user as a mentor. Every route past the list checks a live grant first. A mentor reads the
 * trader's Trade Log, Reports, Reflect, the journal (when shared) and the prop status, and writes only comments.
 */
export function mentorRoutes({ database, mailer, logger, config, storage }: AppDeps) {
  const mail = { mailer, logger, baseUrl: config.baseUrl };
  const limiter = createRateLimiter(database, 'mentor-accept', ACCEPT_RATE);
  return new Hono<AppEnv>()
    .use('/:traderId/*', async (c, next) => {
      await next();
      // Every read of a trader's screens that answered (so passed the grant check: without a live grant it is a 404)
      // is a view the trader hears of. Held for one upsert; the trader's email goes after the answer. A log that
      // cannot be written costs a line in the log, never the mentor's read.
      if (c.req.method !== 'GET' || c.res.status >= 300 || c.error) return;
      // An image is part of the screen that shows it, whose read counted already.
      if (c.req.path.includes('/attachments/')) return;
      const trader = traderIdParam.safeParse({ traderId: c.req.param('traderId') });
      if (!trader.success) return;
      const { user } = c.var;
      await mentorsService
        .recordView(database, mail, { id: user.id, name: user.name || user.email }, trader.data.traderId, new Date())
        .catch((err: unknown) => logger.warn({ err }, 'mentor view not recorded'));
    })
    .post('/accept', async (c) => {
      const { token } = await readJson(c, mentorAcceptInput);
      const wait = await limiter.take(c.var.user.id);
      if (wait > 0) {
        c.header('Retry-After', String(wait));
        return c.json({ error: 'Too many attempts. Try again in a moment.' }, 429);
      }
      return c.json(await mentorsService.accept(database, c.var.user.id, token, new Date()));
    })
    .get('/traders', async (c) => c.json(await mentorsService.traders(database, c.var.user.id)))
    .get('/:traderId/trades', async (c) => {
      const { traderId } = readParams(c, traderIdParam);
      return c.json(await mentorsService.trades(database, c.var.user.id, traderId, readFilterQuery(c, mentorTradesQuery, TRADES_OWN), new Date()));
    })
    .get('/:traderId/trades/:id', async (c) => {
      const { traderId, id } = readParams(c, mentorTradeParam);
      return c.json(await mentorsService.trade(database, c.var.user.id, traderId, id));
    })
    .get('/:traderId/reflect', async (c) => {
      const { traderId } = readParams(c, traderIdParam);
      return c.json(await mentorViews.reflect(database, c.var.user.id, traderId, readQuery(c, reflectionsQuery), new Date()));
    })
    .get('/:traderId/journal', async (c) => {
      const { traderId } = readParams(c, traderIdParam);
      const { account, date } = readQuery(c, mentorJournalQuery);
      return c.json(await mentorViews.journalDays(database, c.var.user.id, traderId, account, date));
    })
    .get('/:traderId/journal/:date', async (c) => {
      const { traderId, date } = readParams(c, mentorJournalDayParam);
      return c.json(await mentorViews.journalDay(database, c.var.user.id, traderId, date, readQuery(c, journalDayQuery).account));
    })
    .get('/:traderId/prop', async (c) => {
      const { traderId } = readParams(c, traderIdParam);
      return c.json(await mentorViews.prop(database, c.var.user.id, traderId, new Date()));
    })
    .get('/:traderId/attachments/files/:file', async (c) => {
      const { traderId, file } = readParams(c, mentorAttachmentParam);
      return sendImage(c, await mentorViews.attachmentFile(database, storage, c.var.user.id, traderId, file));
    })
    .get('/:traderId/comments', async (c) => {
      const { traderId } = readParams(c, traderIdParam);
      return c.json(await mentorsService.mentorComments(database, c.var.user.id, traderId));
    })
    .post('/:traderId/comments', async (c) => {
      const { traderId } = readParams(c, traderIdParam);
      const input = await readJson(c, mentorCommentInput);
      const { user } = c.var;
      return c.json(await mentorsService.comment(database, mail, { id: user.id, name: user.name || user.email }, traderId, input), 201);
    });
}
