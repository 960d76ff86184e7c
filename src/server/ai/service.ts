import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  extractReasoningMiddleware,
  generateText,
  Output,
  stepCountIs,
  streamText,
  wrapLanguageModel,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Logger } from '../logger';
import { AI_MESSAGES, AiError, toAiError } from './errors';
import { admitAiRequest } from './limits';

/**
 * The one module that talks to the AI provider: any OpenAI-compatible
 * `POST {AI_BASE_URL}/chat/completions` with a bearer key, through the AI SDK. Chat, DeepThink, titles, the
 * reflections analysis and note drafting all come through here, so every call gets the same per-user limits,
 * prompt cap, time-out, abort and error texts. The key stays in this process; no request goes out when no provider
 * is configured.
 */

export type AiPurpose = 'chat' | 'title' | 'analysis' | 'deepthink' | 'draft';

export interface AiMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AiRequest {
  purpose: AiPurpose;
  /** 'reasoning' uses AI_REASONING_MODEL (DeepThink). */
  model?: 'chat' | 'reasoning';
  system?: string;
  messages: AiMessage[];
  /** Sent as max_tokens. */
  maxTokens: number;
  temperature: number;
  /** Ask for a JSON object (response_format json_object). The caller parses and validates the text. */
  json?: boolean;
  /** Tools the model may call; each runs our own domain code for the signed-in trader. */
  tools?: ToolSet;
  /** Model round trips allowed when tools are given (a tool call and its answer are two). */
  maxSteps?: number;
  /** The browser went away or pressed Stop. */
  signal?: AbortSignal;
  /** Already counted against the trader's limits by `admit` (a route that refuses before it starts streaming). */
  admitted?: boolean;
}

export type AiEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'tool-call'; id: string; name: string; input: unknown }
  | { type: 'tool-result'; id: string; name: string; output: unknown }
  /** The stream broke after some text was sent; the text of the non-streaming retry follows from the start. */
  | { type: 'restart' }
  | { type: 'done'; text: string; reasoning: string; fallback: boolean };

export interface AiCompletion {
  text: string;
  reasoning: string;
}

export interface AiService {
  configured: boolean;
  models: { chat: string; reasoning: string };
  /** Streams the answer; falls back to a non-streaming call replayed gradually when the stream fails. */
  stream(userId: string, request: AiRequest): AsyncGenerator<AiEvent, void, undefined>;
  /** One non-streaming answer. */
  complete(userId: string, request: AiRequest): Promise<AiCompletion>;
  /** Throws the rate-limit or not-configured error before any work, so a route can answer 429/503 at once. */
  admit(userId: string): Promise<void>;
}

export interface AiServiceOptions {
  config: Config;
  database: Database;
  logger: Logger;
  /** Pause between replayed chunks of a fallback answer. */
  replayDelayMs?: number;
}

/** The provider's base URL: AI_BASE_URL, or OpenAI's when only a key is given. */
export function aiBaseUrl(config: Pick<Config, 'AI_BASE_URL' | 'AI_API_KEY'>): string | undefined {
  return config.AI_BASE_URL ?? (config.AI_API_KEY ? 'https://api.openai.com/v1' : undefined);
}

export function createAiService({ config, database, logger, replayDelayMs = 12 }: AiServiceOptions): AiService {
  const baseURL = aiBaseUrl(config);
  const models = { chat: config.AI_MODEL, reasoning: config.AI_REASONING_MODEL ?? config.AI_MODEL };
  const provider = baseURL
    ? createOpenAICompatible({ name: 'edgebook-ai', baseURL: baseURL.replace(/\/$/, ''), apiKey: config.AI_API_KEY, includeUsage: true })
    : undefined;
  // Reasoning models served by Ollama or llama.cpp put their thinking inside <think> tags in the text; DeepSeek
  // sends reasoning_content, which the provider package reads itself. Both arrive as reasoning.
  const model = (id: string): LanguageModel =>
    wrapLanguageModel({ model: provider!.chatModel(id), middleware: extractReasoningMiddleware({ tagName: 'think' }) });
  const timeoutMs = config.AI_TIMEOUT * 1000;

  async function admit(userId: string) {
    if (!provider) throw new AiError('not-configured', AI_MESSAGES.notConfigured);
    await admitAiRequest(database, userId, { perMinute: config.AI_RATE_LIMIT, perDay: config.AI_DAILY_LIMIT });
  }

  function checkPromptSize(request: AiRequest) {
    const size = (request.system?.length ?? 0) + request.messages.reduce((n, m) => n + m.content.length, 0);
    if (size > config.AI_MAX_PROMPT_CHARS) {
      throw new AiError('prompt-too-large', AI_MESSAGES.promptTooLarge(config.AI_MAX_PROMPT_CHARS));
    }
  }

  /** The caller's signal plus our time-out, and which of them fired. */
  function deadline(signal?: AbortSignal) {
    const timer = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timer]) : timer;
    return { signal: combined, timedOut: () => timer.aborted && !signal?.aborted, aborted: () => Boolean(signal?.aborted) };
  }

  function callSettings(request: AiRequest, abortSignal: AbortSignal) {
    return {
      model: model(request.model === 'reasoning' ? models.reasoning : models.chat),
      system: request.system,
      messages: request.messages as ModelMessage[],
      maxOutputTokens: request.maxTokens,
      temperature: request.temperature,
      // Our own fallback replaces the SDK's retries: a retry is one more request the trader's owner pays for.
      maxRetries: 0,
      abortSignal,
      ...(request.json && { output: Output.json() }),
      ...(request.tools && { tools: request.tools, stopWhen: stepCountIs(request.maxSteps ?? 4) }),
    };
  }

  async function completeOnce(request: AiRequest, abortSignal: AbortSignal) {
    const result = await generateText(callSettings(request, abortSignal));
    return result;
  }

  async function* replay(text: string, signal: AbortSignal): AsyncGenerator<string> {
    const pieces = text.match(/\S+\s*|\s+/g) ?? [];
    for (let i = 0; i < pieces.length; i += 3) {
      if (signal.aborted) return;
      yield pieces.slice(i, i + 3).join('');
      if (replayDelayMs > 0) await new Promise((r) => setTimeout(r, replayDelayMs));
    }
  }

  return {
    configured: Boolean(provider),
    models,
    admit,

    async complete(userId, request) {
      if (!request.admitted) await admit(userId);
      checkPromptSize(request);
      const limit = deadline(request.signal);
      try {
        const result = await completeOnce(request, limit.signal);
        return { text: result.text, reasoning: result.reasoningText ?? '' };
      } catch (error) {
        const mapped = toAiError(error, { timedOut: limit.timedOut(), aborted: limit.aborted() });
        logger.warn({ ai: request.purpose, kind: mapped.kind, status: mapped.status }, 'AI request failed');
        throw mapped;
      }
    },

    async *stream(userId, request) {
      if (!request.admitted) await admit(userId);
      checkPromptSize(request);
      const limit = deadline(request.signal);
      let text = '';
      let reasoning = '';
      let sentText = false;
      try {
        const result = streamText({ ...callSettings(request, limit.signal), onError: () => undefined });
        for await (const part of result.fullStream) {
          switch (part.type) {
            case 'text-delta':
              if (!part.text) break;
              text += part.text;
              sentText = true;
              yield { type: 'text', delta: part.text };
              break;
            case 'reasoning-delta':
              if (!part.text) break;
              reasoning += part.text;
              yield { type: 'reasoning', delta: part.text };
              break;
            case 'tool-call':
              yield { type: 'tool-call', id: part.toolCallId, name: part.toolName, input: part.input };
              break;
            case 'tool-result':
              yield { type: 'tool-result', id: part.toolCallId, name: part.toolName, output: part.output };
              break;
            case 'tool-error':
              throw part.error;
            case 'error':
              throw part.error;
            case 'abort':
              throw new AiError('aborted', AI_MESSAGES.aborted);
            default:
              break;
          }
        }
        if (limit.signal.aborted) throw new AiError('aborted', AI_MESSAGES.aborted);
        yield { type: 'done', text, reasoning, fallback: false };
        return;
      } catch (error) {
        const streamError = toAiError(error, { timedOut: limit.timedOut(), aborted: limit.aborted() });
        if (streamError.kind === 'aborted' || streamError.kind === 'timeout') throw streamError;
        logger.warn({ ai: request.purpose, kind: streamError.kind, status: streamError.status }, 'AI stream failed, retrying without streaming');
      }

      // If streaming fails, fall back to the non-streaming call and replay the text gradually.
      let result: Awaited<ReturnType<typeof completeOnce>>;
      try {
        result = await completeOnce(request, limit.signal);
      } catch (error) {
        const mapped = toAiError(error, { timedOut: limit.timedOut(), aborted: limit.aborted() });
        logger.warn({ ai: request.purpose, kind: mapped.kind, status: mapped.status }, 'AI request failed');
        throw mapped;
      }
      if (sentText) yield { type: 'restart' };
      for (const step of result.steps) {
        for (const call of step.toolCalls) yield { type: 'tool-call', id: call.toolCallId, name: call.toolName, input: call.input };
        for (const res of step.toolResults) yield { type: 'tool-result', id: res.toolCallId, name: res.toolName, output: res.output };
      }
      const fallbackReasoning = result.reasoningText ?? '';
      if (fallbackReasoning) yield { type: 'reasoning', delta: fallbackReasoning };
      let replayed = '';
      for await (const piece of replay(result.text, limit.signal)) {
        replayed += piece;
        yield { type: 'text', delta: piece };
      }
      if (limit.signal.aborted) {
        throw toAiError(new Error('aborted'), { timedOut: limit.timedOut(), aborted: limit.aborted() });
      }
      yield { type: 'done', text: replayed, reasoning: fallbackReasoning, fallback: true };
    },
  };
}
