import { reportUnauthorized } from './session-expiry';

// Thin fetch wrapper for our JSON API. Errors are `{ error: string }` with an HTTP status.
export class ApiError extends Error {
  readonly status: number;
  /** The answer's JSON body (e.g. a 409's `code` and details), when it had one. */
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {
  const headers = new Headers(init?.headers);
  if (init?.body !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  headers.set('Accept', 'application/json');
  const response = await fetch(path, { credentials: 'same-origin', ...init, headers });
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const message =
      typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
        ? body.error
        : `Request failed (${response.status})`;
    // The session ended under the trader: the protected pages check it and send them to sign in.
    if (response.status === 401) reportUnauthorized();
    throw new ApiError(response.status, message, body);
  }
  return body as T;
}
