import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/**
 * A Server-Sent Events response (chat, DeepThink, analysis): each event is one `data: {json}` line, the stream ends
 * with `data: [DONE]`, a comment line every few seconds keeps proxies from closing
 * a quiet connection, and `signal` aborts when the browser goes away, so the provider request is cancelled too.
 */
export interface SseWriter {
  send(data: unknown): Promise<void>;
  readonly signal: AbortSignal;
}

export const SSE_KEEPALIVE_MS = 10_000;

export function sseResponse(c: Context, run: (writer: SseWriter) => Promise<void>, options: { keepAliveMs?: number } = {}) {
  c.header('Cache-Control', 'no-cache, no-transform');
  // nginx and similar proxies buffer responses unless told not to.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    c.req.raw.signal.addEventListener('abort', abort, { once: true });
    stream.onAbort(abort);
    const keepAlive = setInterval(() => {
      if (!stream.aborted && !stream.closed) void stream.write(': keepalive\n\n').catch(abort);
    }, options.keepAliveMs ?? SSE_KEEPALIVE_MS);
    const writer: SseWriter = {
      signal: controller.signal,
      async send(data) {
        if (stream.aborted || stream.closed) return;
        await stream.writeSSE({ data: typeof data === 'string' ? data : JSON.stringify(data) });
      },
    };
    try {
      await run(writer);
      await writer.send('[DONE]');
    } finally {
      clearInterval(keepAlive);
      c.req.raw.signal.removeEventListener('abort', abort);
    }
  });
}

/** True when the request asks for an event stream (Accept: text/event-stream). */
export function wantsEventStream(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('text/event-stream');
}
