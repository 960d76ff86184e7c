import type { ApiClient } from './app';

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
  return { status: res.status, contentType, events: contentType.includes('text/event-stream') ? parseSse(text) : [JSON.parse(text)] };
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
        for (const event of parseSse(`${block}\n\n`)) yield event;
      }
    }
  }
  return { res, events: events() };
}
