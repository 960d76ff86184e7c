import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { chatMessages, chatSessions } from '../../db/schema';
import { DEFAULT_CHAT_TITLE } from '../../../domain/chat';

export type SessionRow = typeof chatSessions.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type NewMessage = Pick<MessageRow, 'text' | 'isUser'> & Partial<Pick<MessageRow, 'status' | 'mode' | 'reasoning' | 'meta'>>;

/** Data access for chat sessions and messages. Every query names its owner; row-level security backs it up. */
export const chatRepo = (tx: Tx, userId: string) => {
  const ownSession = (id: string) => and(eq(chatSessions.userId, userId), eq(chatSessions.id, id));
  return {
    /** Newest activity first (ordered by updatedAt desc). */
    sessions: () =>
      tx.select().from(chatSessions).where(eq(chatSessions.userId, userId)).orderBy(desc(chatSessions.updatedAt), desc(chatSessions.createdAt)),

    find: async (id: string) => (await tx.select().from(chatSessions).where(ownSession(id)))[0],

    /** The session row, locked until the question is stored (a delete racing it waits, then finds the message). */
    lock: async (id: string) => (await tx.select().from(chatSessions).where(ownSession(id)).for('update'))[0],

    newest: async () =>
      (
        await tx
          .select()
          .from(chatSessions)
          .where(eq(chatSessions.userId, userId))
          .orderBy(desc(chatSessions.updatedAt), desc(chatSessions.createdAt))
          .limit(1)
      )[0],

    create: async () => (await tx.insert(chatSessions).values({ userId, title: DEFAULT_CHAT_TITLE }).returning())[0]!,

    messageCount: async (sessionId: string) =>
      (
        await tx
          .select({ n: count() })
          .from(chatMessages)
          .where(and(eq(chatMessages.userId, userId), eq(chatMessages.sessionId, sessionId)))
      )[0]?.n ?? 0,

    userMessageCount: async (sessionId: string) =>
      (
        await tx
          .select({ n: count() })
          .from(chatMessages)
          .where(and(eq(chatMessages.userId, userId), eq(chatMessages.sessionId, sessionId), eq(chatMessages.isUser, true)))
      )[0]?.n ?? 0,

    /** Oldest first (ordered by createdAt ascending). */
    messages: (sessionId: string) =>
      tx
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.userId, userId), eq(chatMessages.sessionId, sessionId)))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id)),

    async addMessage(sessionId: string, message: NewMessage, lastMessage: string) {
      const [row] = await tx
        .insert(chatMessages)
        // clock_timestamp(): the answer is stored after the question within one request; now() would give both the
        // transaction's start time.
        .values({ userId, sessionId, ...message, createdAt: sql`clock_timestamp()` })
        .returning();
      await tx
        .update(chatSessions)
        .set({ lastMessage: lastMessage.slice(0, 200), updatedAt: sql`clock_timestamp()` })
        .where(ownSession(sessionId));
      return row!;
    },

    setTitle: async (id: string, title: string) =>
      (
        await tx
          .update(chatSessions)
          .set({ title, updatedAt: sql`now()` })
          .where(ownSession(id))
          .returning()
      )[0],

    /** Clearing a chat resets its title to 'New Conversation'. */
    async clear(id: string) {
      await tx.delete(chatMessages).where(and(eq(chatMessages.userId, userId), eq(chatMessages.sessionId, id)));
      return (
        await tx
          .update(chatSessions)
          .set({ title: DEFAULT_CHAT_TITLE, lastMessage: null, updatedAt: sql`now()` })
          .where(ownSession(id))
          .returning()
      )[0];
    },

    /** Deleting a session removes its messages (the foreign key cascades). */
    remove: async (id: string) => (await tx.delete(chatSessions).where(ownSession(id)).returning({ id: chatSessions.id })).length > 0,
  };
};
