import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  DEEPTHINK_ERROR,
  DEEPTHINK_NOT_CONFIGURED_TITLE,
  type AnswerChart,
  type AnswerSource,
  type ChatMessage,
  type ChatMessageStatus,
} from '../../../domain/chat';
import { ApiError } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { queryKeys } from '../../shared/api';
import { streamChat, streamDeepThink, useStoreSession } from './api';

export type ChatMode = 'chat' | 'deepthink';

/** The answer being written: what has arrived so far. */
export interface StreamingAnswer {
  text: string;
  reasoning: string;
  /** The last tool asked for, as the trader reads it ('Breaking down your P&L'), until the answer's text comes. */
  tool: string | null;
  sources: AnswerSource[];
  charts: AnswerChart[];
  error: string | null;
}

/** The exchange under way: the trader's question and the answer streaming in. */
export interface PendingExchange {
  sessionId: string;
  mode: ChatMode;
  question: ChatMessage;
  answer: StreamingAnswer;
}

/** The generic apology. */
export const GENERIC_CHAT_ERROR = "I'm sorry, I encountered an error processing your request. Please try again.";
/** How often the streamed text is drawn: markdown is parsed again on every draw, so deltas are batched. */
const DRAW_MS = 40;

let localIds = 0;
const localId = () => `local-${++localIds}`;

function localMessage(sessionId: string, mode: ChatMode, fields: Partial<ChatMessage> & Pick<ChatMessage, 'text' | 'isUser'>): ChatMessage {
  return { id: localId(), sessionId, status: 'complete', mode, reasoning: null, meta: null, createdAt: new Date().toISOString(), ...fields };
}

function answerMessage(pending: PendingExchange, status: ChatMessageStatus, error?: string): ChatMessage {
  const { answer } = pending;
  return localMessage(pending.sessionId, pending.mode, {
    text: answer.text,
    isUser: false,
    status,
    reasoning: answer.reasoning || null,
    meta: { sources: answer.sources, charts: answer.charts.filter((c) => c.points.length > 1), ...(error && { error }) },
  });
}

/**
 * Sends a question and streams its answer: POST /api/chat, or /api/deepthink with DeepThink on. One at a
 * time (sending is blocked while an answer streams); `stop` aborts the request, and the server keeps the
 * answer so far, marked stopped. Leaving the page stops it too. When the answer is stored it joins the session's
 * cached messages, and a new conversation's title reaches every cached copy of the session.
 */
export function useChatStream({ onRefused }: { onRefused: (question: string, status: number) => void }) {
  const client = useQueryClient();
  const storeSession = useStoreSession();
  const [pending, setPending] = useState<PendingExchange | null>(null);
  const current = useRef<PendingExchange | null>(null);
  const controller = useRef<AbortController | null>(null);
  const drawTimer = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      controller.current?.abort();
      window.clearTimeout(drawTimer.current);
    },
    [],
  );

  const draw = useCallback((now = false) => {
    if (now) {
      window.clearTimeout(drawTimer.current);
      drawTimer.current = undefined;
      setPending(current.current && { ...current.current });
      return;
    }
    if (drawTimer.current !== undefined) return;
    drawTimer.current = window.setTimeout(() => {
      drawTimer.current = undefined;
      setPending(current.current && { ...current.current });
    }, DRAW_MS);
  }, []);

  const update = useCallback(
    (change: (answer: StreamingAnswer) => Partial<StreamingAnswer>, now = false) => {
      const p = current.current;
      if (!p) return;
      current.current = { ...p, answer: { ...p.answer, ...change(p.answer) } };
      draw(now);
    },
    [draw],
  );

  /** Puts the finished exchange into the session's messages and ends the pending one. */
  const settle = useCallback(
    (messages: ChatMessage[]) => {
      const p = current.current;
      if (p && messages.length) {
        client.setQueryData<ChatMessage[]>(queryKeys.chat.messages(p.sessionId), (list) => {
          const known = new Set((list ?? []).map((m) => m.id));
          return [...(list ?? []), ...messages.filter((m) => !known.has(m.id))];
        });
      }
      current.current = null;
      controller.current = null;
      draw(true);
    },
    [client, draw],
  );

  const send = useCallback(
    async (sessionId: string, text: string, mode: ChatMode): Promise<boolean> => {
      const question = text.trim();
      // Send needs non-empty trimmed text, and is blocked while an answer streams.
      if (!question || current.current) return false;
      const abort = new AbortController();
      controller.current = abort;
      current.current = {
        sessionId,
        mode,
        question: localMessage(sessionId, mode, { text: question, isUser: true }),
        answer: { text: '', reasoning: '', tool: null, sources: [], charts: [], error: null },
      };
      draw(true);

      let started = false;
      // Set once the answer is stored: the exchange is over for the trader, though the stream stays open until a
      // new conversation's title has come.
      let finished = false;
      const finish = (stored: ChatMessage) => {
        const p = current.current!;
        finished = true;
        settle([p.question, stored]);
        // The question's stored id (DeepThink does not send it back).
        void client.invalidateQueries({ queryKey: queryKeys.chat.messages(sessionId) });
      };
      // The sessions' last messages and order, once a new conversation's title is in too (asked earlier, the list
      // could come back without the title after the title event had set it).
      const refreshSessions = () => void client.invalidateQueries({ queryKey: queryKeys.chat.sessions });
      try {
        if (mode === 'chat') {
          for await (const event of streamChat(sessionId, question, abort.signal)) {
            started = true;
            switch (event.type) {
              case 'user':
                current.current = current.current && { ...current.current, question: event.message };
                break;
              case 'text':
                update((a) => ({ text: a.text + event.delta, tool: null }));
                break;
              case 'reasoning':
                update((a) => ({ reasoning: a.reasoning + event.delta }));
                break;
              case 'restart':
                update(() => ({ text: '', reasoning: '' }), true);
                break;
              case 'tool':
                update(() => ({ tool: event.label }), true);
                break;
              case 'source':
                update(
                  (a) => ({
                    sources: a.sources.some((s) => s.text === event.text)
                      ? a.sources
                      : [...a.sources, { tool: event.tool, text: event.text, trades: event.trades }],
                    charts: event.chart ? [...a.charts, event.chart] : a.charts,
                  }),
                  true,
                );
                break;
              case 'error':
                update(() => ({ error: event.message, tool: null }), true);
                break;
              case 'done':
                finish(event.message);
                break;
              case 'title':
                storeSession(event.session);
                break;
            }
          }
        } else {
          for await (const event of streamDeepThink(sessionId, question, abort.signal)) {
            started = true;
            if (event.content) {
              const delta = event.content;
              update((a) => (event.isReasoning ? { reasoning: a.reasoning + delta } : { text: a.text + delta }));
            }
            if (event.error) update(() => ({ error: event.error! }), true);
            if (event.message) finish(event.message);
            if (event.title) storeSession(event.title);
          }
        }
      } catch (error) {
        // After the answer only the title was still to come; the server keeps the conversation's default title.
        if (finished) {
          refreshSessions();
          return true;
        }
        const p = current.current!;
        if (abort.signal.aborted) {
          // Stop: the server stores the answer so far, marked stopped; the page shows the same at once. A first
          // question still gets its title on the server, which the list picks up a moment later.
          settle([p.question, answerMessage(p, 'stopped')]);
          window.setTimeout(() => void client.invalidateQueries({ queryKey: queryKeys.chat.sessions }), 1500);
          return true;
        }
        if (error instanceof ApiError && !started) {
          // Refused before anything was stored (no provider, the AI limit, a session deleted elsewhere): the question
          // goes back into the box.
          if (mode === 'deepthink' && error.status === 503) toastError(DEEPTHINK_NOT_CONFIGURED_TITLE, error.message);
          else toastError(error.message);
          settle([]);
          onRefused(question, error.status);
          return false;
        }
        // The connection broke mid-answer (a stream error shows as 'Error: {msg}').
        const message =
          mode === 'deepthink' ? DEEPTHINK_ERROR : error instanceof Error && error.message ? `Error: ${error.message}` : GENERIC_CHAT_ERROR;
        settle([p.question, answerMessage(p, 'failed', message)]);
        void client.invalidateQueries({ queryKey: queryKeys.chat.messages(sessionId) });
        return true;
      }

      if (!finished) {
        // The stream ended without the stored answer: the server went away mid-answer.
        const p = current.current!;
        settle([p.question, answerMessage(p, 'failed', p.answer.error ?? GENERIC_CHAT_ERROR)]);
        void client.invalidateQueries({ queryKey: queryKeys.chat.messages(sessionId) });
      }
      refreshSessions();
      return true;
    },
    [client, draw, update, settle, storeSession, onRefused],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return { pending, streaming: pending !== null, send, stop };
}
