import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible chat-completions server for the tests: real HTTP, real Server-Sent Events,
 * scripted per test. No language model runs here; each test queues the replies it wants and then asserts what
 * Edgebook sent (model, messages, max_tokens, temperature, stream, tools, response_format).
 *
 *   const ai = await startAiServer();
 *   ai.reply({ text: 'Hello' });                         // streamed or not, as the request asks
 *   ai.reply({ status: 429 });                           // the provider refuses
 *   ai.reply({ toolCalls: [{ name: 'get_stats', arguments: { from: '2026-06-01' } }] }, { text: 'Done' });
 *   ... exercise the app with AI_BASE_URL = ai.url ...
 *   expect(ai.requests[0].body.max_tokens).toBe(4000);
 *
 * Replies are used in order, one per request; with the queue empty the server answers `defaultReply`.
 */

export interface ToolCallScript {
  name: string;
  /** An object (sent as its JSON) or a raw string (to send malformed arguments). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

export interface AiReply {
  /** The answer's text. Streamed in `chunks` (or word by word) when the request has stream: true. */
  text?: string;
  /** Exact stream chunks of the text (each one SSE event), instead of splitting `text`. */
  chunks?: string[];
  /** DeepSeek-style reasoning, sent before the text as `reasoning_content` (deltas when streaming). */
  reasoning?: string | string[];
  /** The model asks for tools instead of answering (finish_reason tool_calls). */
  toolCalls?: ToolCallScript[];
  /** An HTTP error from the provider, with an OpenAI-style error body. */
  status?: number;
  /** A 200 whose body is not JSON (non-streaming) or whose SSE data is not JSON (streaming). */
  invalidJson?: boolean;
  /** Streaming only: close the connection after this many text chunks, without [DONE]. */
  breakAfterChunks?: number;
  /** Wait this long before each chunk (streaming) or before answering (non-streaming). */
  delayMs?: number;
  /** Wait this long before sending the response headers. */
  headersDelayMs?: number;
  /** Apply this reply only to a request with this stream flag; otherwise it stays queued for the next one. */
  only?: 'stream' | 'non-stream';
  /** The text (and reasoning) made from the request when it arrives, e.g. from a tool's result in its messages. */
  answer?: (body: any) => Pick<AiReply, 'text' | 'chunks' | 'reasoning'>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** performance.now() when the request arrived, and when the first content chunk went out. */
  receivedAt: number;
  firstChunkAt?: number;
  /** True when Edgebook closed the connection before the answer was complete (an abort reached the provider). */
  aborted: boolean;
  reply: AiReply;
}

export interface AiServer {
  /** Base URL to give Edgebook as AI_BASE_URL, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: RecordedRequest[];
  reply(...replies: AiReply[]): void;
  /** What the server answers when no reply is queued. */
  defaultReply: AiReply;
  /** Requests to /chat/completions only, oldest first. */
  completions(): RecordedRequest[];
  /** Resolves when `n` completion requests have arrived. */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Resolves when the request at `index` has been closed by the client before its end. */
  waitForAbort(index: number, timeoutMs?: number): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export async function startAiServer(options: { host?: string } = {}): Promise<AiServer> {
  const queue: AiReply[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let counter = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const isCompletion = req.method === 'POST' && path.endsWith('/chat/completions');
    const streaming = Boolean(body?.stream);
    let reply: AiReply = server_.defaultReply;
    if (isCompletion) {
      const index = queue.findIndex((r) => !r.only || r.only === (streaming ? 'stream' : 'non-stream'));
      if (index >= 0) reply = queue.splice(index, 1)[0]!;
      if (reply.answer) reply = { ...reply, ...reply.answer(body) };
    }
    const record: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      body,
      receivedAt: performance.now(),
      aborted: false,
      reply,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
      notify();
    });
    notify();

    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'test-model', object: 'model' }] }));
      return;
    }
    if (!isCompletion) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
    if (res.destroyed) return;
    if (reply.status && reply.status !== 200) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'test_error', code: reply.status } }));
      return;
    }
    const id = `chatcmpl-${++counter}`;
    const model = body?.model ?? 'test-model';
    const created = Math.floor(Date.now() / 1000);
    const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${counter}_${i}`,
      type: 'function' as const,
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const reasoningParts = reply.reasoning === undefined ? [] : Array.isArray(reply.reasoning) ? reply.reasoning : words(reply.reasoning);
    const textParts = reply.chunks ?? words(reply.text ?? '');
    const text = reply.chunks ? reply.chunks.join('') : (reply.text ?? '');
    const usage = { prompt_tokens: 10, completion_tokens: Math.max(1, textParts.length), total_tokens: 10 + Math.max(1, textParts.length) };

    if (!streaming) {
      if (reply.delayMs) await sleep(reply.delayMs);
      if (res.destroyed) return;
      if (reply.invalidJson) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "broken", "choices": [ this is not json');
        return;
      }
      record.firstChunkAt = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: toolCalls.length ? null : text,
                ...(reasoningParts.length && { reasoning_content: reasoningParts.join('') }),
                ...(toolCalls.length && { tool_calls: toolCalls }),
              },
              finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
            },
          ],
          usage,
        }),
      );
      return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (data: unknown) => {
      if (res.destroyed) return false;
      res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      return true;
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    if (!send(chunk({ role: 'assistant', content: '' }))) return;
    if (reply.invalidJson) {
      send('{"choices": [{"delta": {"content": "half');
      res.end();
      return;
    }
    for (const part of reasoningParts) {
      if (reply.delayMs) await sleep(reply.delayMs);
      record.firstChunkAt ??= performance.now();
      if (!send(chunk({ reasoning_content: part }))) return;
    }
    let sent = 0;
    for (const part of textParts) {
      if (reply.breakAfterChunks !== undefined && sent >= reply.breakAfterChunks) {
        res.destroy();
        return;
      }
      if (reply.delayMs) await sleep(reply.delayMs);
      record.firstChunkAt ??= performance.now();
      if (!send(chunk({ content: part }))) return;
      sent++;
    }
    if (reply.breakAfterChunks !== undefined && sent >= reply.breakAfterChunks) {
      res.destroy();
      return;
    }
    toolCalls.forEach((call, i) => {
      send(chunk({ tool_calls: [{ index: i, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
      send(chunk({ tool_calls: [{ index: i, function: { arguments: call.function.arguments } }] }));
    });
    send({ ...chunk({}, toolCalls.length ? 'tool_calls' : 'stop'), usage });
    send('[DONE]');
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const server_: AiServer = {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    requests,
    defaultReply: { text: 'OK' },
    reply: (...replies) => void queue.push(...replies),
    completions: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    waitForRequests(n, timeoutMs = 10_000) {
      return waitFor(() => server_.completions().length >= n, timeoutMs, `${n} AI requests`).then(() => server_.completions());
    },
    waitForAbort(index, timeoutMs = 10_000) {
      return waitFor(() => server_.completions()[index]?.aborted === true, timeoutMs, `abort of AI request ${index}`);
    },
    clear() {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  }

  return server_;
}

/** The environment that points an Edgebook server at this test provider. */
export function aiEnv(ai: Pick<AiServer, 'url'>, extra: Record<string, string> = {}): Record<string, string> {
  return { AI_BASE_URL: ai.url, AI_API_KEY: 'sk-test-key', AI_MODEL: 'test-chat-model', AI_REASONING_MODEL: 'test-reasoning-model', ...extra };
}
