import fs from 'node:fs';
import crypto from 'node:crypto';
import pino from 'pino';
import pg from 'pg';
import { inject } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server';

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
  client(): ApiClient;
  close(): Promise<void>;
}

export async function startTestApp(options: { backend?: Backend; env?: Record<string, string> } = {}): Promise<TestApp> {
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
  const loadDataDir =
    backend === 'pglite' && env.DATA_DIR === 'memory://' ? new Blob([fs.readFileSync(inject('pgliteDump'))]) : undefined;
  const server = await startServer({ env, logger, loadDataDir });
  return {
    server,
    url: server.url,
    logs,
    client: () => new ApiClient(server.url),
    close: () => server.close(),
  };
}

/** An HTTP client with its own cookie jar: one per simulated browser. */
export class ApiClient {
  private cookies = new Map<string, string>();
  constructor(readonly baseUrl: string, private readonly extraHeaders: Record<string, string> = {}) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(this.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        origin: this.baseUrl,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(this.cookies.size > 0 && { cookie: this.cookieHeader }),
        ...this.extraHeaders,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
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
  delete = <T = any>(path: string) => this.json<T>('DELETE', path);

  async signUp(email: string, password = 'correct-horse-9') {
    return this.post('/api/auth/sign-up/email', { email, password, name: email.split('@')[0] });
  }

  async signIn(email: string, password = 'correct-horse-9') {
    return this.post('/api/auth/sign-in/email', { email, password });
  }
}

export const uniqueEmail = (prefix = 'trader') => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
