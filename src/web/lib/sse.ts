import { ApiError } from './api';
import { reportUnauthorized } from './session-expiry';

/**
 * Server-Sent Events over fetch (our AI routes stream `data: {json}` lines ending with `data: [DONE]`). EventSource
 * cannot POST or be aborted mid-request with a body, so the stream is read by hand from the response body.
 */

/** POSTs JSON asking for an event stream; an error status (answered before any event) becomes an ApiError. */
export async function postEventStream(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    let message = `Request failed (${response.status})`;
    try {
      const json = (await response.json()) as { error?: unknown };
      if (typeof json.error === 'string') message = json.error;
    } catch {
      // not JSON: keep the status
    }
    if (response.status === 401) reportUnauthorized();
    throw new ApiError(response.status, message);
  }
  return response;
}

/** The parsed `data:` payloads of an event stream, until `[DONE]` or the end of the body. */
export async function* readEventStream<T = unknown>(response: Response): AsyncGenerator<T, void, undefined> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = block
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (!data) continue; // a keepalive comment
        if (data === '[DONE]') return;
        yield JSON.parse(data) as T;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
