import { z } from 'zod';
import { CHAT_TITLE_MAX } from '../../../domain/chat';

/** The longest question a trader can send in one message. */
export const MAX_CHAT_MESSAGE = 4000;

const message = z
  .string({ error: 'message must be text' })
  .max(MAX_CHAT_MESSAGE, `message must be at most ${MAX_CHAT_MESSAGE} characters`)
  .refine((m) => m.trim().length > 0, 'message must not be empty');

export const sessionIdParam = z.object({ id: z.uuid('id must be a chat session id') });

export const chatInput = z.object({ sessionId: z.uuid('sessionId must be a chat session id'), message }).strict();

/** Part 2 §7 "Deep reasoning": {message, history}; with `sessionId` the exchange is kept in that conversation. */
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
