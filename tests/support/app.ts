import fs from 'node:fs';
import crypto from 'node:crypto';
import http from 'node:http';
import pino from 'pino';
import pg from 'pg';
import { inject } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server';
import { fastPasswordHashing } from './fast-password';

export type Backend = 'pglite' | 'postgres';

/** The database backends these tests run against: PGlite always, PostgreSQL when the cluster is up. */
export function backends(): Backend[] {
  return inject('pgAdminUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh, empty database on the throwaway cluster; returns its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  if (!adminUrl) throw new Error('no PostgreSQL cluster');
  const name = `edgebook_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

export interface TestApp {
  server: RunningServer;
  url: string;
  /** Every structured log line the server wrote (emails without SMTP land here). */
  logs: Array<Record<string, unknown>>;
  /**
   * A new simulated browser. Each one connects from its own loopback address (127.0.0.2, 127.0.0.3, ...) unless
   * `address` is given: the server rate-limits by socket address, and better-auth allows only 3 sign-ups per
   * address per 10 s, so clients sharing 127.0.0.1 would throttle each other.
   */
  client(options?: { address?: string }): ApiClient;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    backend?: Backend;
    env?: Record<string, string>;
    /** better-auth's own scrypt instead of the tests' cheaper one (tests/support/fast-password.ts). */
    realPasswordHashing?: boolean;
  } = {},
): Promise<TestApp> {
  const backend = options.backend ?? 'pglite';
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: 'memory://',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...(backend === 'postgres' ? { DATABASE_URL: await createPostgresDatabase() } : {}),
    ...options.env,
  };
  const loadDataDir = backend === 'pglite' && env.DATA_DIR === 'memory://' ? new Blob([fs.readFileSync(inject('pgliteDump'))]) : undefined;
  const server = await startServer({ env, logger, loadDataDir, ...(!options.realPasswordHashing && { passwordHashing: fastPasswordHashing }) });
  return {
    server,
    url: server.url,
    logs,
    client: (opts = {}) => new ApiClient(server.url, {}, { localAddress: opts.address ?? nextLoopbackAddress() }),
    close: async () => void (await server.close()),
  };
}

let loopbackCounter = 1;
/** A loopback address not handed out before in this test file (all of 127.0.0.0/8 reaches the server on Linux). */
export function nextLoopbackAddress(): string {
  do loopbackCounter++;
  while ((loopbackCounter & 255) === 0 || (loopbackCounter & 255) === 255);
  return `127.${(loopbackCounter >> 16) & 255}.${(loopbackCounter >> 8) & 255}.${loopbackCounter & 255}`;
}

/** One HTTP exchange from a chosen source address; the body is left as sent (no decompression). */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress: init.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

const withoutEmpty = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));

/** An HTTP client with its own cookie jar: one per simulated browser. */
export class ApiClient {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    private readonly extraHeaders: Record<string, string> = {},
    /** The client's own socket address; without it requests go through fetch from the default address. */
    private readonly options: { localAddress?: string } = {},
  ) {}

  get address(): string | undefined {
    return this.options.localAddress;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    return this.send(method, path, text, { ...(text !== undefined && { 'content-type': 'application/json' }), ...headers });
  }

  /** A request whose body is sent exactly as given (any text, any content type). A header given as '' is not sent. */
  async send(method: string, path: string, text: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
    const init = {
      method,
      headers: withoutEmpty({
        origin: this.baseUrl,
        // An explicit length: node's http.request would otherwise send a DELETE body chunked, which servers refuse.
        ...(text !== undefined && { 'content-length': String(Buffer.byteLength(text)) }),
        ...(this.cookies.size > 0 && { cookie: this.cookieHeader }),
        ...this.extraHeaders,
        ...headers,
      }),
      body: text,
    };
    let res: Response;
    if (this.options.localAddress) {
      const raw = await rawRequest(this.baseUrl + path, { ...init, localAddress: this.options.localAddress });
      const nullBody = [101, 204, 205, 304].includes(raw.status);
      res = new Response(nullBody ? null : new Uint8Array(raw.body), { status: raw.status, headers: raw.headers });
    } else {
      res = await fetch(this.baseUrl + path, { ...init, redirect: 'manual' });
    }
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async json<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await this.request(method, path, body);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  get = <T = any>(path: string) => this.json<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.json<T>('POST', path, body ?? {});
  patch = <T = any>(path: string, body?: unknown) => this.json<T>('PATCH', path, body ?? {});
  put = <T = any>(path: string, body?: unknown) => this.json<T>('PUT', path, body ?? {});
  delete = <T = any>(path: string) => this.json<T>('DELETE', path);

  async signUp(email: string, password = 'correct-horse-9') {
    return this.post('/api/auth/sign-up/email', { email, password, name: email.split('@')[0] });
  }

  async signIn(email: string, password = 'correct-horse-9') {
    return this.post('/api/auth/sign-in/email', { email, password });
  }
}

export const uniqueEmail = (prefix = 'trader') => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;

/** The emails the server wrote to its log (no SMTP) for `to`, oldest first. */
export function loggedEmails(logs: TestApp['logs'], to: string): Array<{ to: string; subject: string; text: string }> {
  return logs
    .map((line) => line.email as { to: string; subject: string; text: string } | undefined)
    .filter((email): email is { to: string; subject: string; text: string } => email?.to === to);
}
