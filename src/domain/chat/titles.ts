/**
 * Chat session titles: at most 50 characters (47 plus '...'); a fallback title of 30 characters.
 */
export const DEFAULT_CHAT_TITLE = 'New Conversation';
export const CHAT_TITLE_MAX = 50;
export const CHAT_TITLE_FALLBACK_LENGTH = 30;

/** Cuts a title to 50 characters: 47 and '...'. */
export function truncateChatTitle(title: string): string {
  return title.length > CHAT_TITLE_MAX ? `${title.slice(0, CHAT_TITLE_MAX - 3)}...` : title;
}

/** The first 30 characters of the first message plus '...' (the whole message when it is short). */
export function fallbackChatTitle(firstMessage: string): string {
  const text = firstMessage.replace(/\s+/g, ' ').trim();
  if (!text) return DEFAULT_CHAT_TITLE;
  return text.length > CHAT_TITLE_FALLBACK_LENGTH ? `${text.slice(0, CHAT_TITLE_FALLBACK_LENGTH)}...` : text;
}

/**
 * A model's title made presentable: its first line, without quotes, a 'Title:' label or markdown, at most 50
 * characters. Null when nothing is left (the caller then uses the fallback).
 */
export function normalizeChatTitle(raw: string): string | null {
  const line = raw
    .replace(/<think>[\s\S]*?<\/think>/gi, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find(Boolean);
  if (!line) return null;
  const title = line
    .replace(/^(title|session title)\s*:\s*/i, '')
    .replace(/^[#*_`>\s-]+|[*_`\s]+$/g, '')
    .replace(/^["'“”‘’]+|["'“”‘’.]+$/g, '')
    .trim();
  return title ? truncateChatTitle(title) : null;
}

/** The instruction for the title request (max_tokens 20, temperature 0.3). */
export const CHAT_TITLE_PROMPT =
  'Write a short title (at most 6 words) for a conversation that starts with the message below. Answer with the title only, without quotes.';
