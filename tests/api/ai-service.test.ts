import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tool } from 'ai';
import { z } from 'zod';
import pino from 'pino';
import { createAiService, type AiEvent, type AiRequest, type AiService } from '../../src/server/ai';
import { AiError } from '../../src/server/ai/errors';
import { loadConfig } from '../../src/server/config';
import { backends, startTestApp, type TestApp } from '../support/app';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { newTrader } from './trades-support';

/**
 * The AI layer against the OpenAI-compatible test server:
 * what goes out on the wire, streaming, the non-streaming fallback, tools, JSON, reasoning, each failure's text,
 * abort, time-out, per-trader limits and the prompt cap. The limits live in the database, so this runs on both.
 */

describe.each(backends())('AI layer on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;
  const logLines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });

  beforeAll(async () => {
    app = await startTestApp({ backend });
    provider = await startAiServer();
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });
  beforeEach(() => provider.clear());

  function service(env: Record<string, string> = {}, replayDelayMs = 0): AiService {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', ...aiEnv(provider), ...env });
    return createAiService({ config, database: app.server.database, logger, replayDelayMs });
  }

  async function userId(): Promise<string> {
    const client = await newTrader(app, 'ai');
    return (await client.get('/api/auth/get-session')).body.user.id as string;
  }

  const ask = (over: Partial<AiRequest> = {}): AiRequest => ({
    purpose: 'chat',
    system: 'You are a trading analyst.',
    messages: [{ role: 'user', content: 'How did I do?' }],
    maxTokens: 4000,
    temperature: 0.1,
    ...over,
  });

  async function collect(events: AsyncIterable<AiEvent>): Promise<AiEvent[]> {
    const out: AiEvent[] = [];
    for await (const event of events) out.push(event);
    return out;
  }

  const textOf = (events: AiEvent[]) =>
    events
      .filter((e) => e.type === 'text')
      .map((e) => (e as { delta: string }).delta)
      .join('');

  async function failure(promise: Promise<unknown>): Promise<AiError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AiError);
    return error as AiError;
  }

  it('streams an answer, sending the model, the system prompt, max_tokens, temperature, stream and the bearer key', async () => {
    const ai = service();
    provider.reply({ chunks: ['You made ', '$1,250.00 ', 'this week.'] });
    const events = await collect(ai.stream(await userId(), ask()));
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual(['You made ', '$1,250.00 ', 'this week.']);
    expect(events.at(-1)).toEqual({ type: 'done', text: 'You made $1,250.00 this week.', reasoning: '', fallback: false });
    const [request] = provider.completions();
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test-key');
    expect(request!.body).toMatchObject({
      model: 'test-chat-model',
      max_tokens: 4000,
      temperature: 0.1,
      stream: true,
      messages: [
        { role: 'system', content: 'You are a trading analyst.' },
        { role: 'user', content: 'How did I do?' },
      ],
    });
    expect(request!.body.response_format).toBeUndefined();
  });

  it('answers without streaming, and uses the reasoning model when asked', async () => {
    const ai = service();
    provider.reply({ text: 'A short title' });
    const result = await ai.complete(await userId(), ask({ purpose: 'title', maxTokens: 20, temperature: 0.3, model: 'reasoning' }));
    expect(result.text).toBe('A short title');
    expect(provider.completions()[0]!.body).toMatchObject({ model: 'test-reasoning-model', max_tokens: 20, temperature: 0.3 });
    expect(provider.completions()[0]!.body.stream ?? false).toBe(false);
  });

  it('asks for a JSON object when the caller wants JSON', async () => {
    const ai = service();
    provider.reply({ text: '{"strengths": []}' });
    const events = await collect(ai.stream(await userId(), ask({ json: true })));
    expect(textOf(events)).toBe('{"strengths": []}');
    expect(provider.completions()[0]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('runs a tool the model asks for, sends its result back, and streams the answer', async () => {
    const ai = service();
    const calls: unknown[] = [];
    const tools = {
      get_stats: tool({
        description: 'Statistics of a date range',
        inputSchema: z.object({ from: z.string() }),
        execute: async (input) => {
          calls.push(input);
          return { trades: 412, net_pnl: '1250.00' };
        },
      }),
    };
    provider.reply({ toolCalls: [{ name: 'get_stats', arguments: { from: '2026-06-01' } }] }, { text: 'You took 412 trades.' });
    const events = await collect(ai.stream(await userId(), ask({ tools })));
    expect(calls).toEqual([{ from: '2026-06-01' }]);
    expect(events.find((e) => e.type === 'tool-call')).toMatchObject({ name: 'get_stats', input: { from: '2026-06-01' } });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ name: 'get_stats', output: { trades: 412, net_pnl: '1250.00' } });
    expect(textOf(events)).toBe('You took 412 trades.');
    const [first, second] = provider.completions();
    expect(first!.body.tools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_stats' }) })]);
    const toolMessage = second!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(JSON.parse(toolMessage.content)).toEqual({ trades: 412, net_pnl: '1250.00' });
  });

  it('reads reasoning from reasoning_content deltas and from <think> tags', async () => {
    const ai = service();
    provider.reply({ reasoning: ['Sum the ', 'days.'], text: 'Net $10.00.' });
    const deepseek = await collect(ai.stream(await userId(), ask({ model: 'reasoning' })));
    expect(
      deepseek
        .filter((e) => e.type === 'reasoning')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('Sum the days.');
    expect(textOf(deepseek)).toBe('Net $10.00.');

    provider.reply({ chunks: ['<think>', 'Check the ', 'losses', '</think>', 'Cut losers sooner.'] });
    const ollama = await collect(ai.stream(await userId(), ask({ model: 'reasoning' })));
    expect(
      ollama
        .filter((e) => e.type === 'reasoning')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('Check the losses');
    expect(textOf(ollama)).toBe('Cut losers sooner.');
  });

  it('falls back to a non-streaming call when the stream fails, and replays its text gradually', async () => {
    const ai = service();
    provider.reply({ status: 500, only: 'stream' }, { text: 'one two three four five six seven', only: 'non-stream' });
    const events = await collect(ai.stream(await userId(), ask()));
    const deltas = events.filter((e) => e.type === 'text');
    expect(deltas.length).toBeGreaterThan(1);
    expect(textOf(events)).toBe('one two three four five six seven');
    expect(events.at(-1)).toMatchObject({ type: 'done', fallback: true });
    expect(provider.completions().map((r) => Boolean(r.body.stream))).toEqual([true, false]);
  });

  it('restarts the text when a stream breaks half way, then replays the complete fallback answer', async () => {
    const ai = service();
    provider.reply(
      { chunks: ['Half ', 'an ', 'answer ', 'never ends'], breakAfterChunks: 2, delayMs: 100, only: 'stream' },
      { text: 'The whole answer.', only: 'non-stream' },
    );
    const events = await collect(ai.stream(await userId(), ask()));
    const restartAt = events.findIndex((e) => e.type === 'restart');
    expect(restartAt).toBeGreaterThan(0);
    // What arrived before the break (the last chunk may be lost with the connection) is a start of the answer.
    const before = textOf(events.slice(0, restartAt));
    expect(before.length).toBeGreaterThan(0);
    expect('Half an '.startsWith(before)).toBe(true);
    expect(textOf(events.slice(restartAt))).toBe('The whole answer.');
  });

  it.each([401, 429, 500])('gives the provider-connection text with the status in brackets for a %s', async (status) => {
    const ai = service();
    provider.reply({ status }, { status });
    const error = await failure(collect(ai.stream(await userId(), ask())));
    expect(error.message).toBe(`Error connecting to AI API (${status}). Please try again later.`);
    expect(error.kind).toBe('provider-status');
    // The stream and then the non-streaming fallback: nothing more (no hidden retries on the owner's bill).
    expect(provider.completions()).toHaveLength(2);
    provider.reply({ status });
    const complete = await failure(ai.complete(await userId(), ask()));
    expect(complete.message).toBe(`Error connecting to AI API (${status}). Please try again later.`);
  });

  it('says the response was invalid when the provider answers something that is not a completion', async () => {
    const ai = service();
    provider.reply({ invalidJson: true });
    const error = await failure(ai.complete(await userId(), ask()));
    expect(error.message).toBe('Error: Received invalid response from API. Please try again.');
    provider.reply({ invalidJson: true, only: 'stream' }, { invalidJson: true, only: 'non-stream' });
    const streamed = await failure(collect(ai.stream(await userId(), ask())));
    expect(streamed.message).toBe('Error: Received invalid response from API. Please try again.');
  });

  it('gives the connection text without a status when the provider cannot be reached', async () => {
    const ai = service({ AI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const error = await failure(collect(ai.stream(await userId(), ask())));
    expect(error.message).toBe('Error connecting to AI API. Please try again later.');
  });

  it('aborts the provider request when the caller stops, without a fallback request', async () => {
    const ai = service();
    provider.reply({ text: 'a very slow answer that goes on and on', delayMs: 300 });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of ai.stream(await userId(), ask({ signal: controller.signal }))) {
        if (event.type === 'text') {
          seen.push(event.delta);
          controller.abort();
        }
      }
    })();
    const error = await failure(run);
    expect(error.kind).toBe('aborted');
    await provider.waitForAbort(0);
    expect(provider.completions()).toHaveLength(1);
    expect(seen.length).toBeLessThan(4);
  });

  it('cuts a request off after AI_TIMEOUT and says the provider took too long', async () => {
    const ai = service({ AI_TIMEOUT: '1' });
    provider.reply({ text: 'late', headersDelayMs: 3000 });
    const started = Date.now();
    const error = await failure(ai.complete(await userId(), ask()));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('The AI provider took too long to answer. Please try again later.');
    expect(Date.now() - started).toBeLessThan(2900);
  });

  it('sends nothing when no provider is configured', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://' });
    const ai = createAiService({ config, database: app.server.database, logger });
    expect(ai.configured).toBe(false);
    const error = await failure(ai.complete(await userId(), ask()));
    expect(error.kind).toBe('not-configured');
    expect(error.message).toContain('AI_BASE_URL');
    expect(provider.requests).toHaveLength(0);
  });

  it('limits each trader to AI_RATE_LIMIT requests a minute, counted in the database, without touching others', async () => {
    const ai = service({ AI_RATE_LIMIT: '3' });
    const alice = await userId();
    const bob = await userId();
    for (let i = 0; i < 3; i++) await ai.complete(alice, ask());
    const error = await failure(ai.complete(alice, ask()));
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toMatch(/^Too many AI requests\. Please wait \d+ seconds and try again\.$/);
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(provider.completions()).toHaveLength(3);
    // Concurrent requests cannot slip past the count.
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => ai.complete(bob, ask())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
  });

  it('stops a trader at AI_DAILY_LIMIT requests a day', async () => {
    const ai = service({ AI_DAILY_LIMIT: '2', AI_RATE_LIMIT: '100' });
    const trader = await userId();
    await ai.complete(trader, ask());
    await ai.complete(trader, ask());
    const error = await failure(ai.complete(trader, ask()));
    expect(error.message).toBe('You have used all your AI requests for today. Please try again tomorrow.');
  });

  it('refuses a prompt over AI_MAX_PROMPT_CHARS before anything is sent', async () => {
    const ai = service({ AI_MAX_PROMPT_CHARS: '1000' });
    const error = await failure(ai.complete(await userId(), ask({ messages: [{ role: 'user', content: 'x'.repeat(1001) }] })));
    expect(error.kind).toBe('prompt-too-large');
    expect(provider.completions()).toHaveLength(0);
  });

  it('never logs the key', () => {
    expect(JSON.stringify(logLines)).not.toContain('sk-test-key');
  });
});
