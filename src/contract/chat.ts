import { z } from 'zod';
import { CHAT_TITLE_MAX, MAX_CHAT_MESSAGE } from '../domain/chat';
import type { ChatEvent, ChatMessage, ChatSession, DeepThinkEvent, DeletedChatSession } from '../domain/chat';
import { agree, instant, type Same } from './common';

/**
 * ReflectAI's endpoints' contract: /api/chat (its conversations and the streamed answer) and
 * /api/deepthink. The shapes are src/domain/chat's types, which the server builds and the web app reads; the schemas
 * below describe them for the API tests, which parse every streamed event, and the checks at the end make a schema
 * that drifts from those types a type error.
 */

const message = z
  .string({ error: 'message must be text' })
  .max(MAX_CHAT_MESSAGE, `message must be at most ${MAX_CHAT_MESSAGE} characters`)
  .refine((m) => m.trim().length > 0, 'message must not be empty');

export const sessionIdParam = z.object({ id: z.uuid('id must be a chat session id') });

/** POST /api/chat */
export const chatInput = z.object({ sessionId: z.uuid('sessionId must be a chat session id'), message }).strict();

/** POST /api/deepthink: deep reasoning over {message, history}; with `sessionId` the exchange is kept. */
export const deepThinkInput = z
  .object({
    message,
    history: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant']).optional(),
          isUser: z.boolean().optional(),
          content: z.string().max(20_000).optional(),
          text: z.string().max(20_000).optional(),
        }),
        { error: 'history must be a list of messages' },
      )
      .max(100, 'history must be at most 100 messages')
      .optional(),
    sessionId: z.uuid('sessionId must be a chat session id').optional(),
  })
  .strict();

/** PATCH /api/chat/sessions/:id */
export const renameInput = z
  .object({
    title: z
      .string({ error: 'title must be text' })
      .trim()
      .min(1, 'title must not be empty')
      .max(200, 'title must be at most 200 characters')
      .transform((t) => (t.length > CHAT_TITLE_MAX ? `${t.slice(0, CHAT_TITLE_MAX - 3)}...` : t)),
  })
  .strict();

/** A conversation: GET /sessions/current, POST /sessions, PATCH /sessions/:id, POST /sessions/:id/clear. */
export const chatSession = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  last_message: z.string().nullable(),
  createdAt: instant,
  updatedAt: instant,
});
/** GET /api/chat/sessions, newest first. */
export const chatSessionList = z.array(chatSession);

const answerChart = z.strictObject({
  kind: z.enum(['bar', 'line']),
  title: z.string(),
  points: z.array(z.strictObject({ label: z.string(), cents: z.number().int() })),
});
const sourceFields = { tool: z.string(), text: z.string(), trades: z.number().int().nonnegative() };

/** A stored message. */
export const chatMessage = z.strictObject({
  id: z.uuid(),
  sessionId: z.uuid(),
  text: z.string(),
  isUser: z.boolean(),
  status: z.enum(['complete', 'stopped', 'failed']),
  mode: z.enum(['chat', 'deepthink']),
  reasoning: z.string().nullable(),
  meta: z
    .strictObject({
      sources: z.array(z.strictObject(sourceFields)).optional(),
      charts: z.array(answerChart).optional(),
      error: z.string().optional(),
      unverified: z.array(z.string()).optional(),
    })
    .nullable(),
  createdAt: instant,
});
/** GET /api/chat/sessions/:id/messages, oldest first. */
export const chatMessageList = z.array(chatMessage);

/** DELETE /api/chat/sessions/:id: the session to switch to. */
export const deletedChatSession = z.strictObject({ deleted: z.uuid(), next: chatSession });

/** POST /api/chat with Accept: text/event-stream: each event before `data: [DONE]`. */
export const chatEvent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('user'), message: chatMessage }),
  z.strictObject({ type: z.literal('text'), delta: z.string() }),
  z.strictObject({ type: z.literal('reasoning'), delta: z.string() }),
  z.strictObject({ type: z.literal('restart') }),
  z.strictObject({ type: z.literal('tool'), name: z.string(), label: z.string() }),
  z.strictObject({ type: z.literal('source'), ...sourceFields, chart: answerChart.optional() }),
  z.strictObject({ type: z.literal('error'), message: z.string() }),
  z.strictObject({ type: z.literal('done'), message: chatMessage }),
  z.strictObject({ type: z.literal('title'), session: chatSession }),
]);

/** POST /api/deepthink: each event before `data: [DONE]`. */
export const deepThinkEvent = z.strictObject({
  content: z.string().optional(),
  isReasoning: z.boolean().optional(),
  error: z.string().optional(),
  message: chatMessage.optional(),
  title: chatSession.optional(),
});

export { MAX_CHAT_MESSAGE };
export type ChatInput = z.infer<typeof chatInput>;
export type DeepThinkInput = z.infer<typeof deepThinkInput>;
export type { ChatEvent, ChatMessage, ChatSession, DeepThinkEvent, DeletedChatSession };

/** The schemas and the domain's types must say the same, both ways: a drift on either side fails the type check. */
agree<Same<z.infer<typeof chatSession>, ChatSession>>(true);
agree<Same<z.infer<typeof chatMessage>, ChatMessage>>(true);
agree<Same<z.infer<typeof deletedChatSession>, DeletedChatSession>>(true);
agree<Same<z.infer<typeof chatEvent>, ChatEvent>>(true);
agree<Same<z.infer<typeof deepThinkEvent>, DeepThinkEvent>>(true);
