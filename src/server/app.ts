import path from 'node:path';
import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppConfig, Health } from '../contract/config';
import { accountRoutes } from './features/accounts/routes';
import { preferenceRoutes } from './features/preferences/routes';
import { tradeRoutes } from './features/trades/routes';
import { tradePreferenceRoutes } from './features/trade-preferences/routes';
import { profileRoutes } from './features/profile/routes';
import { taskRoutes } from './features/tasks/routes';
import { onboardingRoutes } from './features/onboarding/routes';
import { importRoutes } from './features/imports/routes';
import { connectionRoutes } from './features/connections/routes';
import type { ConnectionsRuntime } from './features/connections/runtime';
import { analyzeReflectionsRoutes, reflectionRoutes } from './features/reflections/routes';
import { captchaRoutes } from './features/captcha/routes';
import { accountDataRoutes } from './features/account-data/routes';
import { chatRoutes, deepThinkRoutes } from './features/chat/routes';
import { authHandler } from './auth/handler';
import { createSignInLimiter } from './auth/sign-in-limits';
import { folderRoutes, noteRoutes, tagRoutes } from './features/notes/routes';
import { attachmentRoutes } from './features/attachments/routes';
import { journalRoutes } from './features/notes/journal-routes';
import { tradeDetailsRoutes } from './features/trade-details/routes';
import { marketRoutes } from './features/market/routes';
import { economicCalendarRoutes } from './features/economic-calendar/routes';
import { quickLinkRoutes, requireUserForDefaults } from './features/quick-links/routes';
import { riskDefaultRoutes } from './features/risk/routes';
import { mistakeTagRoutes } from './features/risk/mistakes';
import { playbookRoutes, tradePlaybookRoutes } from './features/playbooks/routes';
import { propRoutes } from './features/prop/routes';
import { catchUpReports, mentorReportRoutes, reportRoutes } from './features/reports/routes';
import { savedViewRoutes } from './features/saved-views/routes';
import { sharedPageReferrer, sharedPageRoutes, shareLinkRoutes } from './features/sharing/routes';
import { mentorCommentRoutes, mentorGrantRoutes, mentorRoutes, mentorViewRoutes } from './features/mentors/routes';
import type { AppDeps, AppEnv } from './http/context';
import { limitBodies } from './http/body-limit';
import { compressResponses } from './http/compress';
import { describeError, redactPath } from './http/error-log';
import { databaseUnavailable, HttpError } from './http/errors';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, unavailableReason } from './db/unavailable';
import { createClientAddressResolver } from './http/client-address';
import { sameOriginWrites } from './http/same-origin';
import { noStoreByDefault, securityHeaders } from './http/security';
import { createSessionCache, requireUser } from './http/session';
import { mountWebApp } from './http/static';
import { packageRoot } from './paths';

export const webRoot = path.join(packageRoot, 'dist', 'web');

/** The socket's address; forwarded headers count only from a trusted proxy (client-address.ts). */
function socketAddress(c: Parameters<typeof getConnInfo>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The features that live beside the request's dependencies: broker connections run their own schedule. */
export interface AppFeatures {
  connections: ConnectionsRuntime;
}

export function createApp(appDeps: AppDeps, features: AppFeatures) {
  const sessions = createSessionCache(appDeps.config.SESSION_CACHE_SECONDS * 1000, appDeps.database);
  const deps: AppDeps = { ...appDeps, sessions };
  const { auth, config, database, logger } = deps;
  const app = new Hono<AppEnv>();

  app.onError((error, c) => {
    if (error instanceof HttpError) {
      return c.json({ error: error.message, ...error.details }, error.status);
    }
    // The database is restarting or unreachable: the request may be tried again in a moment.
    const reason = unavailableReason(error);
    if (reason) {
      logger.warn({ method: c.req.method, path: redactPath(c.req.path), reason }, 'database unavailable');
      return databaseUnavailable(c);
    }
    // Never the error's message or the request's values: see error-log.ts.
    logger.error({ error: describeError(error), method: c.req.method, path: redactPath(c.req.path) }, 'unhandled error');
    return c.json({ error: 'Internal server error' }, 500);
  });

  const resolveClient = createClientAddressResolver(config.TRUSTED_PROXIES);
  // Structured request log: one line per request.
  app.use('*', async (c, next) => {
    const started = performance.now();
    c.set('clientIp', resolveClient(socketAddress(c), c.req.header('x-forwarded-for')));
    await next();
    logger.info(
      {
        method: c.req.method,
        // The reset link carries its token in the path: whoever reads the log must not be able to use it.
        path: redactPath(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip: c.var.clientIp,
        user: c.get('user')?.id,
      },
      'request',
    );
  });
  app.use('/s/*', sharedPageReferrer());
  app.use('*', securityHeaders(config));
  app.use('*', compressResponses());
  // Every route under /api, present and future: no cross-site writes, and no body larger than its route needs.
  app.use('/api/*', sameOriginWrites(config.baseUrl));
  app.use('/api/*', limitBodies());
  app.use('/api/*', noStoreByDefault());

  app.get('/api/health', async (c) => {
    const ok = await database.ping().catch(() => false);
    if (ok) return c.json({ ok, database: database.kind } satisfies Health);
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    return c.json({ ok, database: database.kind, error: DATABASE_UNAVAILABLE_MESSAGE } satisfies Health, 503);
  });

  app.get('/api/config', (c) =>
    c.json({
      emailVerification: deps.mailer.delivers,
      googleSignIn: Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET),
      oidc: config.OIDC_ISSUER ? { name: config.OIDC_NAME } : null,
      captcha: config.captcha ? { provider: config.captcha.provider, siteKey: config.captcha.siteKey } : null,
      tutorialVideoUrls: config.TUTORIAL_VIDEO_URLS ?? null,
      links: { community: config.COMMUNITY_URL, social: config.SOCIAL_URL, support: config.SUPPORT_EMAIL },
      // Whether an AI provider is configured, and which models: never the key or the provider's address.
      ai: {
        configured: deps.ai.configured,
        model: deps.ai.configured ? deps.ai.models.chat : null,
        reasoningModel: deps.ai.configured ? deps.ai.models.reasoning : null,
      },
    } satisfies AppConfig),
  );

  app.on(['GET', 'POST'], '/api/auth/*', authHandler(auth, createSignInLimiter(database, config.AUTH_ACCOUNT_ATTEMPTS), sessions, database));

  app.route('/api/verify-recaptcha', captchaRoutes(deps));

  app.use('/api/quick-links/defaults', requireUserForDefaults(auth));
  const api = new Hono<AppEnv>();
  api.use('*', requireUser(auth, sessions));
  api.use('*', catchUpReports(deps));
  api.route('/accounts', accountRoutes(deps));
  api.route('/preferences', preferenceRoutes(deps));
  api.route('/trades', tradeRoutes(deps));
  api.route('/trade-preferences', tradePreferenceRoutes(deps));
  api.route('/profile', profileRoutes(deps));
  api.route('/tasks', taskRoutes(deps));
  api.route('/onboarding', onboardingRoutes(deps));
  api.route('/imports', importRoutes(deps));
  api.route('/connections', connectionRoutes(features.connections));
  api.route('/reflections', reflectionRoutes(deps));
  api.route('/analyze-reflections', analyzeReflectionsRoutes(deps));
  api.route('/account', accountDataRoutes(deps));
  api.route('/chat', chatRoutes(deps));
  api.route('/deepthink', deepThinkRoutes(deps));
  api.route('/notes', noteRoutes(deps));
  api.route('/note-folders', folderRoutes(deps));
  api.route('/tags', tagRoutes(deps));
  api.route('/attachments', attachmentRoutes(deps));
  api.route('/journal', journalRoutes(deps));
  api.route('/trade-details', tradeDetailsRoutes(deps));
  api.route('/quick-links', quickLinkRoutes(deps));
  api.route('/risk-defaults', riskDefaultRoutes(deps));
  api.route('/mistake-tags', mistakeTagRoutes(deps));
  api.route('/playbooks', playbookRoutes(deps));
  api.route('/trade-playbooks', tradePlaybookRoutes(deps));
  api.route('/prop', propRoutes(deps));
  api.route('/reports', reportRoutes(deps));
  api.route('/market', marketRoutes(deps));
  api.route('/economic-calendar', economicCalendarRoutes(deps));
  api.route('/share-links', shareLinkRoutes(deps));
  api.route('/mentor-grants', mentorGrantRoutes(deps));
  api.route('/mentor-comments', mentorCommentRoutes(deps));
  api.route('/mentor-views', mentorViewRoutes(deps));
  api.route('/mentor', mentorRoutes(deps));
  api.route('/mentor/:traderId/reports', mentorReportRoutes(deps));
  api.route('/saved-views', savedViewRoutes(deps));
  app.route('/api', api);

  app.all('/api/*', (c) => c.json({ error: 'Not found' }, 404));
  // Read-only pages a trader shared: drawn by the server, outside the app and its session.
  app.route('/s', sharedPageRoutes(deps));
  mountWebApp(app, webRoot);
  return app;
}
