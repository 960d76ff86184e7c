import { APICallError, NoContentGeneratedError, RetryError } from 'ai';

/**
 * Every way an AI request can fail, and the text the trader sees for it. The
 * provider's own message, a stack trace or the key never reach the browser; the log gets the kind and status.
 */
export type AiErrorKind =
  /** No provider is configured on this server. */
  | 'not-configured'
  /** The provider answered with an HTTP error status. */
  | 'provider-status'
  /** The provider could not be reached, or the connection broke. */
  | 'connection'
  /** The provider answered something that is not a chat completion. */
  | 'invalid-response'
  /** The provider took longer than AI_TIMEOUT. */
  | 'timeout'
  /** The trader (or the browser going away) stopped the request. */
  | 'aborted'
  /** This trader has used their AI requests for the minute or the day. */
  | 'rate-limited'
  /** The prompt is larger than AI_MAX_PROMPT_CHARS. */
  | 'prompt-too-large';

export const AI_MESSAGES = {
  /** The provider-connection error, with the status in brackets when there is one. */
  connection: (status?: number) =>
    status ? `Error connecting to AI API (${status}). Please try again later.` : 'Error connecting to AI API. Please try again later.',
  invalidResponse: 'Error: Received invalid response from API. Please try again.',
  generic: "I'm sorry, I encountered an error processing your request. Please try again.",
  /** A stream error shows as 'Error: {msg}'. */
  streamError: (message: string) => `Error: ${message}`,
  notConfigured:
    'AI is not configured on this Edgebook server. Ask the administrator to set AI_BASE_URL (and AI_API_KEY) for an OpenAI-compatible provider such as OpenAI, DeepSeek, Ollama or llama.cpp; docs/self-hosting.md explains how.',
  timeout: 'The AI provider took too long to answer. Please try again later.',
  rateLimited: (seconds: number) => `Too many AI requests. Please wait ${seconds} seconds and try again.`,
  dailyLimit: 'You have used all your AI requests for today. Please try again tomorrow.',
  promptTooLarge: (max: number) =>
    `The question and its context are too long for the AI provider (more than ${max.toLocaleString('en-US')} characters). Ask about a shorter period or start a new conversation.`,
  aborted: 'Stopped.',
} as const;

export class AiError extends Error {
  constructor(
    readonly kind: AiErrorKind,
    /** The text for the trader. */
    message: string,
    readonly status?: number,
    /** For rate limits: seconds until the trader may try again. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AiError';
  }

  /** The HTTP status our own API answers with when this error ends a request before any stream started. */
  get httpStatus(): 400 | 413 | 429 | 502 | 503 | 504 | 499 {
    switch (this.kind) {
      case 'not-configured':
        return 503;
      case 'rate-limited':
        return 429;
      case 'prompt-too-large':
        return 413;
      case 'timeout':
        return 504;
      case 'aborted':
        return 499;
      default:
        return 502;
    }
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'ResponseAborted');
}

/** Maps whatever the SDK or fetch threw to an AiError. `timedOut` tells a time-out from the trader's own stop. */
export function toAiError(error: unknown, context: { timedOut?: boolean; aborted?: boolean } = {}): AiError {
  if (error instanceof AiError) return error;
  if (context.timedOut) return new AiError('timeout', AI_MESSAGES.timeout);
  if (context.aborted || isAbort(error)) return new AiError('aborted', AI_MESSAGES.aborted);
  if (RetryError.isInstance(error)) return toAiError(error.lastError, context);
  if (APICallError.isInstance(error)) {
    if (error.statusCode && (error.statusCode < 200 || error.statusCode >= 300)) {
      return new AiError('provider-status', AI_MESSAGES.connection(error.statusCode), error.statusCode);
    }
    // A 200 whose body could not be read as a chat completion.
    if (error.statusCode) return new AiError('invalid-response', AI_MESSAGES.invalidResponse);
    return new AiError('connection', AI_MESSAGES.connection());
  }
  if (NoContentGeneratedError.isInstance(error)) return new AiError('invalid-response', AI_MESSAGES.invalidResponse);
  const name = error instanceof Error ? error.name : '';
  if (/JSONParse|TypeValidation|InvalidResponse|NoObjectGenerated|InvalidStreamPart/i.test(name)) {
    return new AiError('invalid-response', AI_MESSAGES.invalidResponse);
  }
  return new AiError('connection', AI_MESSAGES.connection());
}
