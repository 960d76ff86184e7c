import { Hono, type Context } from 'hono';
import { AiError, sseResponse } from '../../ai';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson, readParams } from '../../http/validate';
import { chatInput, deepThinkInput, renameInput, sessionIdParam } from './schemas';
import { createChatService, DEEPTHINK_ERROR, DEEPTHINK_NOT_CONFIGURED, DEEPTHINK_NOT_CONFIGURED_TITLE } from './service';

/** An AI refusal that comes before any streaming (not configured, rate limit): a plain JSON error with its status. */
function refuse(c: Context, error: AiError, message: string) {
  if (error.retryAfter) c.header('Retry-After', String(error.retryAfter));
  return c.json({ error: message }, error.httpStatus === 499 ? 400 : error.httpStatus);
}

/**
 * Streams `events` as Server-Sent Events. The first event is pulled before the response starts, so refusals that
 * come up front (no provider, the AI limit, another trader's session) answer with their status, not inside a 200.
 */
async function streamEvents(c: Context<AppEnv>, events: AsyncGenerator<unknown>, controller: AbortController, refusal: (error: AiError) => string) {
  let first: IteratorResult<unknown>;
  try {
    first = await events.next();
  } catch (error) {
    if (error instanceof AiError) return refuse(c, error, refusal(error));
    throw error;
  }
  return sseResponse(c, async (sse) => {
    sse.signal.addEventListener('abort', () => controller.abort(), { once: true });
    if (!first.done) await sse.send(first.value);
    for await (const event of events) await sse.send(event);
  });
}

/** Aborts when the browser goes away (or presses Stop), which aborts the provider request too. */
function requestAbort(c: Context) {
  const controller = new AbortController();
  c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}

/** /api/chat: conversations on the server and the streamed answers. */
export function chatRoutes({ database, ai, logger, config }: AppDeps) {
  const chat = createChatService({ database, ai, logger });
  return new Hono<AppEnv>()
    .get('/sessions', async (c) => c.json(await chat.sessions(c.var.user.id)))
    .get('/sessions/current', async (c) => c.json(await chat.current(c.var.user.id)))
    .post('/sessions', async (c) => {
      const { session, created } = await chat.create(c.var.user.id);
      return c.json(session, created ? 201 : 200);
    })
    .get('/sessions/:id/messages', async (c) => c.json(await chat.messages(c.var.user.id, readParams(c, sessionIdParam).id)))
    .patch('/sessions/:id', async (c) => {
      const { id } = readParams(c, sessionIdParam);
      return c.json(await chat.rename(c.var.user.id, id, (await readJson(c, renameInput)).title));
    })
    .post('/sessions/:id/clear', async (c) => c.json(await chat.clear(c.var.user.id, readParams(c, sessionIdParam).id)))
    .delete('/sessions/:id', async (c) => c.json(await chat.remove(c.var.user.id, readParams(c, sessionIdParam).id)))
    .post('/', async (c) => {
      const { sessionId, message } = await readJson(c, chatInput);
      const controller = requestAbort(c);
      const events = chat.send(c.var.user.id, sessionId, message, new Date(), controller.signal, config.AI_MAX_PROMPT_CHARS);
      return streamEvents(c, events, controller, (error) => error.message);
    });
}

/** POST /api/deepthink: `data: {content, isReasoning, error}` lines, then [DONE]. */
export function deepThinkRoutes({ database, ai, logger, config }: AppDeps) {
  const chat = createChatService({ database, ai, logger });
  return new Hono<AppEnv>().post('/', async (c) => {
    const input = await readJson(c, deepThinkInput);
    if (!ai.configured) return c.json({ error: DEEPTHINK_NOT_CONFIGURED, title: DEEPTHINK_NOT_CONFIGURED_TITLE }, 503);
    const controller = requestAbort(c);
    const events = chat.deepThink(c.var.user.id, input, new Date(), controller.signal, config.AI_MAX_PROMPT_CHARS);
    return streamEvents(c, events, controller, (error) => (error.kind === 'rate-limited' ? error.message : DEEPTHINK_ERROR));
  });
}
