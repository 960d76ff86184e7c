import type { z } from 'zod';
import { chatEvent, deepThinkEvent } from '../../src/contract/chat';
import { draftEvent } from '../../src/contract/notes';
import { analysisEvent } from '../../src/contract/reflections';
import type { ApiClient } from './app';

/**
 * Every endpoint that streams, with the contract of its events (src/contract): each event any API test
 * reads from these is parsed against it, so an event the server sends in a shape the web app does not expect fails
 * the test that saw it.
 */
const EVENT_CONTRACTS: Record<string, z.ZodType> = {
  '/api/chat': chatEvent,
  '/api/deepthink': deepThinkEvent,
  '/api/notes/draft': draftEvent,
  '/api/analyze-reflections': analysisEvent,
};

/** Checks a streamed event against its endpoint's contract; throws naming the field that does not match. */
export function checkEvent(path: string, event: unknown): void {
  if (event === '[DONE]') return;
  const schema = EVENT_CONTRACTS[path.split('?')[0]!];
  if (!schema) throw new Error(`no event contract for ${path}: add it to EVENT_CONTRACTS in tests/support/sse.ts`);
  const parsed = schema.safeParse(event);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
    throw new Error(`${path} streamed an event that does not match its contract: ${where}\n${JSON.stringify(event).slice(0, 1000)}`);
  }
}

/** The `data:` payloads of a Server-Sent Events body, JSON-parsed; '[DONE]' stays a string. */
export function parseSse(body: string): unknown[] {
  const events: unknown[] = [];
  for (const block of body.split(/\n\n/)) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) continue;
    events.push(data === '[DONE]' ? data : JSON.parse(data));
  }
  return events;
}

/** POSTs as the client and reads the whole event stream. */
export async function postSse(client: ApiClient, path: string, body: unknown): Promise<{ status: number; contentType: string; events: any[] }> {
  const res = await client.request('POST', path, body, { accept: 'text/event-stream' });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) return { status: res.status, contentType, events: [JSON.parse(text)] };
  const events = parseSse(text);
  for (const event of events) checkEvent(path, event);
  return { status: res.status, contentType, events };
}

/**
 * POSTs with fetch so the test can read the stream as it arrives and abort it (the browser closing the tab or
 * pressing Stop). Returns the response and a reader of parsed events.
 */
export async function openSse(client: ApiClient, path: string, body: unknown, signal?: AbortSignal) {
  const res = await fetch(client.baseUrl + path, {
    method: 'POST',
    headers: { origin: client.baseUrl, cookie: client.cookieHeader, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  async function* events(): AsyncGenerator<any> {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const event of parseSse(`${block}\n\n`)) {
          checkEvent(path, event);
          yield event;
        }
      }
    }
  }
  return { res, events: events() };
}
