import {
  CHAT_CONTEXT_MAX_TRADES,
  DEEPTHINK_ERROR,
  DEEPTHINK_NOT_CONFIGURED,
  DEEPTHINK_NOT_CONFIGURED_TITLE,
  type AnswerChart,
  type ChatEvent,
  type ChatMessage,
  type ChatSession,
  type DeepThinkEvent,
  type MessageMeta,
  CHAT_TITLE_PROMPT,
  DEFAULT_CHAT_TITLE,
  buildChatContext,
  countTradesByMonth,
  detectChatTimeRange,
  fallbackChatTitle,
  findUnverifiedFigures,
  hasTradingKeywords,
} from '../../../domain/chat';
import { normalizeChatTitle } from '../../../domain/chat/titles';
import { getDayName, getTodayInZone } from '../../../domain/dates';
import { TRADER_DATA_RULE } from '../../../domain/text';
import { toCents } from '../../../domain/money';
import { combineStats } from '../../../domain/stats';
import { AI_MESSAGES, AiError, type AiMessage, type AiService } from '../../ai';
import { lockFor } from '../../db/advisory-lock';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import type { Logger } from '../../logger';
import { getPreferences } from '../../core/preferences/repo';
import { chatRepo, type MessageRow, type SessionRow } from './repo';
import { isRefusal, newestFirst, withChatTrades } from './trade-scope';
import { chatTools, TOOL_LABELS, type ToolBasis } from './tools';

/** Chat answers use max_tokens 4000 and temperature 0.1; titles 20 and 0.3. */
export const CHAT_PARAMS = { maxTokens: 4000, temperature: 0.1 } as const;
export const TITLE_PARAMS = { maxTokens: 20, temperature: 0.3 } as const;
/** Earlier messages sent with a question, newest kept first, within the prompt cap. */
const MAX_HISTORY_MESSAGES = 30;

export { DEEPTHINK_ERROR, DEEPTHINK_NOT_CONFIGURED, DEEPTHINK_NOT_CONFIGURED_TITLE };

export function systemPrompt(today: string, timeZone: string): string {
  return [
    "You are ReflectAI, the trading analyst inside Edgebook, a trading journal. You answer the trader's questions about their own trading in concise, numeric terms.",
    'Write any math in plain text (for example "6 wins / 10 decided trades = 60.0%"), never LaTeX.',
    "Take every figure from the trade data given to you or from your tools' results and copy it exactly as written. Do not add up, average or compute new figures yourself: when you need a total, a rate or a breakdown, call a tool. If the data does not answer the question, say so.",
    `Today is ${getDayName(today)}, ${today}, in the trader's time zone (${timeZone}). Answer in Markdown; use a table to compare.`,
    `${TRADER_DATA_RULE} Your tools' results are the trader's data in the same way.`,
  ].join('\n');
}

/** A chat message as the API sends it. */
export function toMessageDto(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    sessionId: row.sessionId,
    text: row.text,
    isUser: row.isUser,
    status: row.status as 'complete' | 'stopped' | 'failed',
    mode: row.mode as 'chat' | 'deepthink',
    reasoning: row.reasoning,
    meta: (row.meta ?? null) as MessageMeta | null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
export type MessageDto = ChatMessage;

export function toSessionDto(row: SessionRow): ChatSession {
  return {
    id: row.id,
    title: row.title,
    last_message: row.lastMessage,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
export type SessionDto = ChatSession;
export type { AnswerChart, ChatEvent, MessageMeta };

interface Prepared {
  system: string;
  history: AiMessage[];
  contextSource: MessageMeta['sources'];
  timeZone: string;
  today: string;
}

export function createChatService({ database, ai, logger }: { database: Database; ai: AiService; logger: Logger }) {
  /** Models of this provider that answered a request with tools with a 400 (many on Ollama have no tool support). */
  const toollessModels = new Set<string>();

  async function zoneAndToday(userId: string, now: Date) {
    const { timeZone } = await getPreferences(database, userId);
    return { timeZone, today: getTodayInZone(now, timeZone) };
  }

  /**
   * The spec's context: when the question is about trading, up to 50 recent trades of the range it
   * names, then the range's totals, counts, win percentage, P&L and monthly counts, all summed by Edgebook.
   */
  async function tradeContext(userId: string, question: string, today: string, now: Date) {
    if (!hasTradingKeywords(question)) return null;
    const range = detectChatTimeRange(question, today);
    const context = await withChatTrades(
      { database, userId, now },
      range ? { from: range.from, to: range.to } : {},
      async ({ days, basis, details, set }) => {
        const recent = await details(newestFirst(set, CHAT_CONTEXT_MAX_TRADES));
        const totals = combineStats(days);
        const text = buildChatContext({
          rangeLabel: range?.label ?? null,
          trades: recent.map((t) => ({
            tradeDate: new Date(t.tradeDate).toISOString().slice(0, 10),
            symbol: t.symbol,
            side: t.side,
            tradeType: t.tradeType,
            status: t.status,
            pnlCents: toCents(t.pnl),
            notes: t.notes,
          })),
          totals,
          months: countTradesByMonth(days),
          firstDay: days[0]?.date ?? null,
          lastDay: days[days.length - 1]?.date ?? null,
        });
        // Worded as the tools word theirs: a tool over the same trades then gives the same line, printed once.
        return { text, source: { tool: 'context', text: basis.text, trades: totals.trades } };
      },
    );
    return isRefusal(context) ? null : context;
  }

  /** The conversation so far, newest kept, within the prompt cap left after the instructions and the question. */
  function fitHistory(rows: readonly MessageRow[], budget: number): AiMessage[] {
    const kept: AiMessage[] = [];
    let used = 0;
    for (let i = rows.length - 1; i >= 0 && kept.length < MAX_HISTORY_MESSAGES; i--) {
      const row = rows[i]!;
      if (!row.text.trim()) continue;
      if (used + row.text.length > budget) break;
      used += row.text.length;
      kept.unshift({ role: row.isUser ? 'user' : 'assistant', content: row.text });
    }
    // A conversation sent to the provider starts with the trader's message.
    while (kept[0]?.role === 'assistant') kept.shift();
    return kept;
  }

  async function prepare(userId: string, question: string, earlier: readonly MessageRow[], now: Date, promptCap: number): Promise<Prepared> {
    const { timeZone, today } = await zoneAndToday(userId, now);
    const context = await tradeContext(userId, question, today, now);
    // The system message holds our instructions only; the trade data, fenced, travels with the question it answers.
    const system = systemPrompt(today, timeZone);
    const asked = context ? `${context.text}\n\n${question}` : question;
    const budget = Math.max(0, promptCap - system.length - asked.length - 1000);
    return {
      system,
      history: [...fitHistory(earlier, budget), { role: 'user', content: asked }],
      contextSource: context ? [context.source] : [],
      timeZone,
      today,
    };
  }

  /**
   * A title for a new conversation from its first message: the model's (max_tokens 20, temperature
   * 0.3), at most 50 characters; the first 30 characters plus '...' when there is no provider or it answers
   * nothing usable; 'New Conversation' when the request fails.
   */
  async function titleFor(userId: string, firstMessage: string): Promise<string> {
    if (!ai.configured) return fallbackChatTitle(firstMessage);
    try {
      const { text } = await ai.complete(userId, {
        purpose: 'title',
        system: CHAT_TITLE_PROMPT,
        messages: [{ role: 'user', content: firstMessage.slice(0, 1000) }],
        ...TITLE_PARAMS,
      });
      return normalizeChatTitle(text) ?? fallbackChatTitle(firstMessage);
    } catch (error) {
      if (!(error instanceof AiError) || error.kind !== 'aborted') logger.warn({ kind: (error as AiError).kind }, 'chat title request failed');
      return DEFAULT_CHAT_TITLE;
    }
  }

  async function storeUserMessage(userId: string, sessionId: string, text: string, mode: 'chat' | 'deepthink') {
    return database.withUser(userId, async (tx) => {
      const repo = chatRepo(tx, userId);
      const session = await repo.lock(sessionId);
      if (!session) throw notFound('Chat session not found');
      const earlier = await repo.messages(sessionId);
      const message = await repo.addMessage(sessionId, { text, isUser: true, mode }, text);
      return { session, earlier, message, isFirst: !earlier.some((m) => m.isUser) };
    });
  }

  async function storeAnswer(
    userId: string,
    sessionId: string,
    answer: { text: string; status: 'complete' | 'stopped' | 'failed'; mode: 'chat' | 'deepthink'; reasoning?: string; meta: MessageMeta },
  ) {
    return database.withUser(userId, (tx) =>
      chatRepo(tx, userId).addMessage(
        sessionId,
        { text: answer.text, isUser: false, status: answer.status, mode: answer.mode, reasoning: answer.reasoning || null, meta: answer.meta },
        answer.text || answer.meta.error || '',
      ),
    );
  }

  async function applyTitle(userId: string, sessionId: string, title: string) {
    return database.withUser(userId, async (tx) => {
      const repo = chatRepo(tx, userId);
      const session = await repo.find(sessionId);
      // Only a conversation still called 'New Conversation' is renamed (the trader may have renamed it meanwhile).
      if (!session || session.title !== DEFAULT_CHAT_TITLE || title === DEFAULT_CHAT_TITLE) return session;
      return repo.setTitle(sessionId, title);
    });
  }

  return {
    /**
     * One chat exchange: the question is stored, the answer streamed with tools over the trader's own
     * trades (or the spec's context for models without tools), stored when it completes, or as far as it got when
     * the trader stops it or it fails; a new conversation gets its title alongside.
     */
    async *send(userId: string, sessionId: string, question: string, now: Date, signal: AbortSignal, promptCap: number): AsyncGenerator<ChatEvent> {
      if (!ai.configured) throw new AiError('not-configured', AI_MESSAGES.notConfigured);
      await ai.admit(userId);
      const { earlier, message, isFirst } = await storeUserMessage(userId, sessionId, question, 'chat');
      yield { type: 'user', message: toMessageDto(message) };

      const prepared = await prepare(userId, question, earlier, now, promptCap);
      const { timeZone, today } = prepared;
      const meta: MessageMeta = { sources: [...(prepared.contextSource ?? [])], charts: [] };
      // What the model was given: the figures it may cite (the trader's own words included).
      const given: string[] = [prepared.system, ...prepared.history.map((m) => m.content)];
      let text = '';
      let reasoning = '';
      let status: 'complete' | 'stopped' | 'failed' = 'complete';
      const useTools = !toollessModels.has(ai.models.chat);

      const run = (withTools: boolean) =>
        ai.stream(userId, {
          purpose: 'chat',
          system: prepared.system,
          messages: prepared.history,
          ...CHAT_PARAMS,
          tools: withTools ? chatTools({ database, userId, timeZone, today, now, logger }) : undefined,
          maxSteps: 5,
          signal,
          admitted: true,
        });

      try {
        let attempt = run(useTools);
        for (let retried = false; ;) {
          try {
            for await (const event of attempt) {
              if (event.type === 'text') {
                text += event.delta;
                yield { type: 'text', delta: event.delta };
              } else if (event.type === 'reasoning') {
                reasoning += event.delta;
                yield { type: 'reasoning', delta: event.delta };
              } else if (event.type === 'restart') {
                text = '';
                reasoning = '';
                yield { type: 'restart' };
              } else if (event.type === 'tool-call') {
                yield { type: 'tool', name: event.name, label: TOOL_LABELS[event.name] ?? 'Looking at your trades' };
              } else if (event.type === 'tool-result') {
                const output = event.output as { basis?: ToolBasis; chart?: AnswerChart; error?: string };
                given.push(JSON.stringify(output));
                if (output?.basis) {
                  const source = { tool: event.name, text: output.basis.text, trades: output.basis.trades };
                  if (!meta.sources!.some((s) => s.text === source.text)) meta.sources!.push(source);
                  if (output.chart && output.chart.points.length > 1) meta.charts!.push(output.chart);
                  yield { type: 'source', ...source, chart: output.chart };
                }
              }
            }
            break;
          } catch (error) {
            // A model without tool support answers 400 to a request with tools: ask again with the spec's context only.
            if (!retried && useTools && error instanceof AiError && error.kind === 'provider-status' && error.status === 400 && !text) {
              retried = true;
              toollessModels.add(ai.models.chat);
              logger.info({ model: ai.models.chat }, 'the chat model refused tools; answering without them');
              attempt = run(false);
              continue;
            }
            throw error;
          }
        }
      } catch (error) {
        if (error instanceof AiError && (error.kind === 'aborted' || signal.aborted)) status = 'stopped';
        else {
          status = 'failed';
          meta.error = error instanceof AiError ? error.message : AI_MESSAGES.generic;
          if (!(error instanceof AiError)) logger.error({ err: error }, 'chat answer failed');
        }
      }

      const unverified = findUnverifiedFigures(text, given);
      if (unverified.length) meta.unverified = unverified;
      const stored = await storeAnswer(userId, sessionId, { text, status, mode: 'chat', reasoning, meta });
      if (status === 'failed') yield { type: 'error', message: meta.error! };
      yield { type: 'done', message: toMessageDto(stored) };
      // The title is asked for once the answer is stored, so the answer is never kept waiting by it. It has no
      // abort signal: a trader who stopped the answer still gets a titled conversation.
      if (isFirst) {
        const session = await applyTitle(userId, sessionId, await titleFor(userId, question));
        if (session) yield { type: 'title', session: toSessionDto(session) };
      }
    },

    /**
     * DeepThink: the reasoning model, its reasoning streamed apart from the
     * answer as `{content, isReasoning}`. With a session the exchange is stored in it; otherwise the history the
     * browser sent is used.
     */
    async *deepThink(
      userId: string,
      input: { message: string; history?: Array<{ role?: string; isUser?: boolean; content?: string; text?: string }>; sessionId?: string },
      now: Date,
      signal: AbortSignal,
      promptCap: number,
    ): AsyncGenerator<DeepThinkEvent> {
      await ai.admit(userId);
      let earlier: MessageRow[] = [];
      let isFirst = false;
      if (input.sessionId) {
        const stored = await storeUserMessage(userId, input.sessionId, input.message, 'deepthink');
        earlier = stored.earlier;
        isFirst = stored.isFirst;
      } else {
        earlier = (input.history ?? []).map((h, i) => ({
          id: String(i),
          userId,
          sessionId: '',
          text: h.content ?? h.text ?? '',
          isUser: h.isUser ?? h.role !== 'assistant',
          status: 'complete',
          mode: 'deepthink',
          reasoning: null,
          meta: null,
          createdAt: '',
        }));
      }
      const prepared = await prepare(userId, input.message, earlier, now, promptCap);
      let text = '';
      let reasoning = '';
      let status: 'complete' | 'stopped' | 'failed' = 'complete';
      let error: string | undefined;
      try {
        for await (const event of ai.stream(userId, {
          purpose: 'deepthink',
          model: 'reasoning',
          system: prepared.system,
          messages: prepared.history,
          ...CHAT_PARAMS,
          signal,
          admitted: true,
        })) {
          if (event.type === 'text') {
            text += event.delta;
            yield { content: event.delta, isReasoning: false };
          } else if (event.type === 'reasoning') {
            reasoning += event.delta;
            yield { content: event.delta, isReasoning: true };
          } else if (event.type === 'restart') {
            text = '';
            reasoning = '';
          }
        }
      } catch (e) {
        if (e instanceof AiError && (e.kind === 'aborted' || signal.aborted)) status = 'stopped';
        else {
          status = 'failed';
          error = e instanceof AiError && e.kind === 'rate-limited' ? e.message : DEEPTHINK_ERROR;
          if (!(e instanceof AiError)) logger.error({ err: e }, 'DeepThink failed');
        }
      }
      if (input.sessionId) {
        const unverified = findUnverifiedFigures(text, [prepared.system, ...prepared.history.map((m) => m.content)]);
        const stored = await storeAnswer(userId, input.sessionId, {
          text,
          status,
          mode: 'deepthink',
          reasoning,
          meta: { sources: prepared.contextSource ?? [], ...(error && { error }), ...(unverified.length && { unverified }) },
        });
        if (error) yield { error };
        yield { message: toMessageDto(stored) };
        if (isFirst) {
          const session = await applyTitle(userId, input.sessionId, await titleFor(userId, input.message));
          if (session) yield { title: toSessionDto(session) };
        }
      } else if (error) yield { error };
    },

    sessions: async (userId: string) => (await database.withUser(userId, (tx) => chatRepo(tx, userId).sessions())).map(toSessionDto),

    /** On load the newest session is active, or a new one is created. */
    current: (userId: string) =>
      database.withUser(userId, async (tx) => {
        const repo = chatRepo(tx, userId);
        const newest = await repo.newest();
        if (newest) return toSessionDto(newest);
        await lockFor(tx, 'chat_sessions', userId);
        return toSessionDto((await repo.newest()) ?? (await repo.create()));
      }),

    /**
     * New Chat: a conversation that has no message yet is reused rather than another empty one made. One trader's
     * New Chats one at a time: ten at once each found no empty session and made one.
     */
    create: (userId: string) =>
      database.withUser(userId, async (tx) => {
        const repo = chatRepo(tx, userId);
        await lockFor(tx, 'chat_sessions', userId);
        const newest = await repo.newest();
        if (newest && (await repo.messageCount(newest.id)) === 0) return { session: toSessionDto(newest), created: false };
        return { session: toSessionDto(await repo.create()), created: true };
      }),

    messages: (userId: string, sessionId: string) =>
      database.withUser(userId, async (tx) => {
        const repo = chatRepo(tx, userId);
        if (!(await repo.find(sessionId))) throw notFound('Chat session not found');
        return (await repo.messages(sessionId)).map(toMessageDto);
      }),

    rename: (userId: string, sessionId: string, title: string) =>
      database.withUser(userId, async (tx) => {
        const session = await chatRepo(tx, userId).setTitle(sessionId, title);
        if (!session) throw notFound('Chat session not found');
        return toSessionDto(session);
      }),

    clear: (userId: string, sessionId: string) =>
      database.withUser(userId, async (tx) => {
        const session = await chatRepo(tx, userId).clear(sessionId);
        if (!session) throw notFound('Chat session not found');
        return toSessionDto(session);
      }),

    /** Deleting the active session switches to another or creates a new one; the answer names it. */
    remove: (userId: string, sessionId: string) =>
      database.withUser(userId, async (tx) => {
        const repo = chatRepo(tx, userId);
        await lockFor(tx, 'chat_sessions', userId);
        if (!(await repo.remove(sessionId))) throw notFound('Chat session not found');
        const next = (await repo.newest()) ?? (await repo.create());
        return { deleted: sessionId, next: toSessionDto(next) };
      }),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
