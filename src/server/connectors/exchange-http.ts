import { ConnectorError } from './types';

/**
 * The HTTP the crypto exchanges' connectors share: one request with a time limit, tried again when the exchange fails
 * (5xx), cannot be reached or is too slow, with doubling pauses; everything else (statuses, error codes, rate limits,
 * signatures) is each exchange's own and read by its module. Messages are in the trader's words; what the log may keep
 * is the endpoint and a status, never a key, a secret or a signature.
 */

export interface ExchangeHttpOptions {
  /** The exchange's name as the trader knows it. */
  label: string;
  timeoutMs: number;
  /** First pause between attempts, ms (doubling). */
  retryBaseMs: number;
}

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** For messages and logs: the path, without its query. */
  endpoint: string;
  attempts: number;
  signal?: AbortSignal;
}

export interface ExchangeAnswer {
  status: number;
  headers: Headers;
  /** The body read as JSON; undefined when it is not JSON. */
  body: unknown;
}

/** A wait on the exchange longer than this is not made inside one sync: the next sync comes. */
export const LONGEST_WAIT_MS = 60_000;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const aborted = () => new ConnectorError('aborted', 'The request was stopped (the server is shutting down).');

export function exchangeMessages(options: ExchangeHttpOptions, host: string) {
  const { label } = options;
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  return {
    unreachable: `Edgebook could not reach ${label} at ${host}. Check this server's internet connection, or try again later.`,
    timeout: `${label} did not answer within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}. Try again later.`,
    failing: (status: number) => `${label}'s API is having trouble right now (HTTP ${status}). Try again in a few minutes.`,
    rateLimited: (waitMs: number | null) =>
      waitMs !== null && waitMs > 0
        ? `${label} is limiting how often Edgebook may ask (too many requests): it asks to wait ${describeWait(waitMs)}. The next sync continues.`
        : `${label} is limiting how often Edgebook may ask (too many requests). Try again in a minute.`,
    unreadable: (endpoint: string, what: string) => `${label} answered ${endpoint} with ${what}, which Edgebook cannot read.`,
  };
}

export function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/**
 * One request: a 5xx, a timeout or an unreachable exchange is tried again (up to `attempts` in all); any other answer is
 * returned for the exchange's module to read.
 */
export async function exchangeFetch(options: ExchangeHttpOptions, request: ExchangeRequest): Promise<ExchangeAnswer> {
  const host = new URL(request.url).host;
  const messages = exchangeMessages(options, host);
  let failure: ConnectorError | undefined;
  for (let attempt = 0; attempt < request.attempts; attempt++) {
    if (request.signal?.aborted) throw aborted();
    const timer = AbortSignal.timeout(options.timeoutMs);
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: { accept: 'application/json', ...request.headers },
        body: request.body,
        signal: request.signal ? AbortSignal.any([request.signal, timer]) : timer,
      });
      const text = await response.text();
      if (response.status >= 500) {
        failure = new ConnectorError('unavailable', messages.failing(response.status), { endpoint: request.endpoint, status: response.status });
      } else {
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        return { status: response.status, headers: response.headers, body };
      }
    } catch (error) {
      if (error instanceof ConnectorError) throw error;
      if (request.signal?.aborted) throw aborted();
      failure = timer.aborted
        ? new ConnectorError('timeout', messages.timeout, { endpoint: request.endpoint })
        : new ConnectorError('unavailable', messages.unreachable, { endpoint: request.endpoint });
    }
    if (attempt + 1 < request.attempts) await sleep(options.retryBaseMs * 2 ** attempt, request.signal);
  }
  throw failure!;
}

/** A Retry-After header (seconds) in ms, or null. */
export function retryAfterMs(headers: Headers): number | null {
  const value = Number(headers.get('retry-after'));
  return Number.isFinite(value) && value >= 0 ? value * 1000 : null;
}
