/**
 * The shapes the ReflectAI API answers with, shared by the server that sends them and the page that reads
 * them, so the two cannot drift, and the DeepThink texts both sides show.
 */

/** A conversation. */
/** The longest question a trader can send in one message. */
export const MAX_CHAT_MESSAGE = 4000;

export interface ChatSession {
  id: string;
  title: string;
  last_message: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ChartPoint {
  label: string;
  cents: number;
}

/** A tool result that is a series, drawn under the answer. */
export interface AnswerChart {
  kind: 'bar' | 'line';
  title: string;
  points: ChartPoint[];
}

/** What an answer's figures were computed from: one line per tool result, or for the spec's trade context. */
export interface AnswerSource {
  tool: string;
  text: string;
  trades: number;
}

export interface MessageMeta {
  sources?: AnswerSource[];
  charts?: AnswerChart[];
  /** Why the answer failed, in the spec's words. */
  error?: string;
  /** Money or percentages in the answer that Edgebook never gave the model (it computed or made them up). */
  unverified?: string[];
}

export type ChatMessageStatus = 'complete' | 'stopped' | 'failed';

/** A message; answers are stored complete, or as far as they got, marked. */
export interface ChatMessage {
  id: string;
  sessionId: string;
  text: string;
  isUser: boolean;
  status: ChatMessageStatus;
  mode: 'chat' | 'deepthink';
  reasoning: string | null;
  meta: MessageMeta | null;
  createdAt: string;
}

/** POST /api/chat with Accept: text/event-stream: these events as `data: {json}`, then `data: [DONE]`. */
export type ChatEvent =
  | { type: 'user'; message: ChatMessage }
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  /** The provider's stream failed and the fallback answer follows from the start: drop the text so far. */
  | { type: 'restart' }
  | { type: 'tool'; name: string; label: string }
  | ({ type: 'source'; chart?: AnswerChart } & AnswerSource)
  | { type: 'error'; message: string }
  | { type: 'done'; message: ChatMessage }
  | { type: 'title'; session: ChatSession };

/**
 * POST /api/deepthink: `{content, isReasoning}` deltas, maybe `{error}`, then with a
 * session the stored answer `{message}` and a new conversation's `{title}`.
 */
export interface DeepThinkEvent {
  content?: string;
  isReasoning?: boolean;
  error?: string;
  message?: ChatMessage;
  title?: ChatSession;
}

/** DELETE /api/chat/sessions/:id: the session to switch to (another one, or a new one). */
export interface DeletedChatSession {
  deleted: string;
  next: ChatSession;
}

/** The words a chat or DeepThink failure shows. */
export const DEEPTHINK_ERROR_TITLE = 'DeepThink Error';
export const DEEPTHINK_ERROR = 'Error connecting to DeepThink API. Please try again later.';
export const DEEPTHINK_NOT_CONFIGURED_TITLE = 'DeepThink Not Configured';
export const DEEPTHINK_NOT_CONFIGURED =
  'DeepThink needs an AI provider, and none is configured on this server. Ask the administrator to set AI_BASE_URL (and AI_REASONING_MODEL for a reasoning model); docs/self-hosting.md explains how.';
