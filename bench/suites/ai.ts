import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteExtensions } from '../../src/server/db/client';
import { aiEnv, startAiServer, type AiServer } from '../../tests/support/ai-server';
import { nextLoopbackAddress, rawRequest } from '../../tests/support/app';
import { spawnServer, summarize, tempDir, type PostgresForBench, type Row } from '../lib';
import { newTrader, seed } from './trade-log';

const SUITE = 'ai';
const TRADES_NOTE = '100,000 trades';

/**
 * The AI half at 100,000 trades, against the OpenAI-compatible test server running in this process:
 * - the Reflect page's data for one month (~1,500 trades) and the analysis with its local fallback;
 * - our overhead on a streamed answer: the time from the provider's first token to the browser's (both clocks are
 *   this process's), and time to first token through our server against straight from the provider;
 * - a tool call over all 100,000 trades (the time between the model asking and the model getting the result);
 * - 50 traders streaming at once.
 * The trades are written straight into the database (as in the trade-log suite); one server process per backend.
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const n = ctx.quick ? 5 : 30;
  const provider = await startAiServer();
  const env = { ...aiEnv(provider), AI_RATE_LIMIT: '100000', AI_DAILY_LIMIT: '100000', AUTH_RATE_LIMIT: '100000' };
  try {
    const dir = tempDir('ai');
    try {
      let { server } = await spawnServer({ DATA_DIR: dir, ...env });
      const trader = await newTrader(server.url);
      await server.stop();
      const db = await PGlite.create(path.join(dir, 'pglite'), { extensions: pgliteExtensions });
      await seed((text, params) => db.query(text, params), trader.userId, trader.accountId);
      await db.close();
      ({ server } = await spawnServer({ DATA_DIR: dir, ...env }));
      try {
        rows.push(...(await measureAll(server.url, trader.cookie, provider, 'pglite', n, ctx.quick)));
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    if (ctx.postgres) {
      const url = await ctx.postgres.newDatabase();
      const pgDir = tempDir('ai-pg');
      const { server } = await spawnServer({ DATABASE_URL: url, DATA_DIR: pgDir, ...env });
      try {
        const trader = await newTrader(server.url);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await seed((text, params) => client.query(text, params), trader.userId, trader.accountId);
        await client.query('analyze trades');
        await client.end();
        rows.push(...(await measureAll(server.url, trader.cookie, provider, 'postgres', n, ctx.quick)));
      } finally {
        await server.stop();
        fs.rmSync(pgDir, { recursive: true, force: true });
      }
    }
  } finally {
    await provider.close();
  }
  return rows;
}

async function timed(url: string, init: RequestInit, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -3; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (i >= 0) samples.push(performance.now() - t0);
  }
  return samples;
}

/** Reads an SSE response, calling `onEvent` with each parsed event and the time it arrived. */
async function readEvents(res: Response, onEvent: (event: any, at: number) => void) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const at = performance.now();
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      buffer = buffer.slice(end + 2);
      if (data && data !== '[DONE]') onEvent(JSON.parse(data), at);
    }
  }
}

/** A sign-up from its own loopback address: the server allows 3 sign-ups per address per 10 s. */
async function signUpFrom(url: string, address: string): Promise<string> {
  const body = JSON.stringify({ email: `bench-${crypto.randomUUID()}@example.com`, password: 'bench-password-1', name: 'bench' });
  const res = await rawRequest(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, 'content-length': String(Buffer.byteLength(body)) },
    body,
    localAddress: address,
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.body.toString()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!.trim())
    .join('; ');
}

function post(url: string, cookie: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { cookie, origin: new URL(url).origin, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
}

/** The month (offset from this month) holding the seeded trades' last full month, so "a month" has ~1,500 trades. */
function seededMonthOffset(): number {
  // The seed's trades run from 2020-01-06, 50 a trading day, for 100,000 trades: through mid-2025.
  const last = new Date(Date.UTC(2025, 4, 1));
  const now = new Date();
  return (now.getUTCFullYear() - last.getUTCFullYear()) * 12 + now.getUTCMonth() - last.getUTCMonth();
}

async function measureAll(url: string, cookie: string, provider: AiServer, backend: string, n: number, quick: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const headers = { cookie };
  const offset = seededMonthOffset();
  const page = (await (await fetch(`${url}/api/reflections?period=month&offset=${offset}`, { headers })).json()) as {
    reflections: unknown[];
    label: string;
  };
  const monthNote = `${page.reflections.length.toLocaleString('en-US')} trades in the month, ${TRADES_NOTE}`;
  if (page.reflections.length < 1000) throw new Error(`expected a busy month, got ${page.reflections.length} trades (${page.label})`);
  rows.push(
    summarize(
      SUITE,
      'GET /api/reflections (one month)',
      backend,
      await timed(`${url}/api/reflections?period=month&offset=${offset}`, { headers }, n),
      'ms',
      monthNote,
    ),
  );
  rows.push(
    summarize(
      SUITE,
      'GET /api/reflections (one week)',
      backend,
      await timed(`${url}/api/reflections?period=week&offset=${offset * 4 + 2}`, { headers }, n),
      'ms',
      TRADES_NOTE,
    ),
  );

  // The analysis of that month, end to end through the test provider (prompt of the figures and 150 trades).
  const analysis = JSON.stringify({ summary: { patterns: ['p'] }, strengths: ['s'], weaknesses: ['w'], suggestions: ['x'], actionPlan: ['a'] });
  provider.defaultReply = { text: analysis };
  const analyses: number[] = [];
  for (let i = -1; i < Math.min(n, 10); i++) {
    const t0 = performance.now();
    const res = await post(`${url}/api/analyze-reflections`, cookie, { period: 'month', offset });
    let source = '';
    await readEvents(res, (e) => {
      if (e.type === 'result') source = e.report.source;
    });
    if (source !== 'ai') throw new Error(`analysis came from ${source || 'nowhere'}`);
    if (i >= 0) analyses.push(performance.now() - t0);
  }
  rows.push(summarize(SUITE, 'POST /api/analyze-reflections (one month, AI answer, end to end)', backend, analyses, 'ms', monthNote));

  // Our overhead on a streamed answer: 40 chunks 5 ms apart from the provider.
  const session = (await (await fetch(`${url}/api/chat/sessions/current`, { headers })).json()) as { id: string };
  provider.defaultReply = { chunks: Array.from({ length: 40 }, (_, i) => `word${i} `), delayMs: 5 };
  const relay: number[] = [];
  const ttftOurs: number[] = [];
  const ttftDirect: number[] = [];
  for (let i = -2; i < n; i++) {
    // Straight from the provider.
    const d0 = performance.now();
    const direct = await fetch(`${provider.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
    });
    let directFirst = 0;
    await readEvents(direct, (e, at) => {
      if (!directFirst && e.choices?.[0]?.delta?.content) directFirst = at;
    });
    // Through our server (a question without trading words: no trade context, just our work).
    const before = provider.completions().length;
    const t0 = performance.now();
    const res = await post(`${url}/api/chat`, cookie, { sessionId: session.id, message: 'hello' });
    let first = 0;
    await readEvents(res, (e, at) => {
      if (!first && e.type === 'text') first = at;
    });
    const answer = provider.completions()[before]!;
    if (i >= 0) {
      ttftDirect.push(directFirst - d0);
      ttftOurs.push(first - t0);
      relay.push(first - answer.firstChunkAt!);
    }
  }
  rows.push(summarize(SUITE, 'chat: provider first token to browser first token (our relay)', backend, relay));
  rows.push(summarize(SUITE, 'chat: time to first token through Edgebook', backend, ttftOurs));
  rows.push(summarize(SUITE, 'chat: time to first token straight from the provider', 'node', ttftDirect));

  // A tool call over every trade: from the model asking (end of its first response) to the model getting the result.
  for (const [label, call] of [
    ['get_statistics, all trades', { name: 'get_statistics', arguments: {} }],
    ['get_pnl_breakdown by weekday, all trades', { name: 'get_pnl_breakdown', arguments: { by: 'weekday' } }],
  ] as const) {
    const samples: number[] = [];
    for (let i = -1; i < Math.min(n, 15); i++) {
      const before = provider.completions().length;
      provider.reply({ toolCalls: [call] }, { text: 'done' });
      const res = await post(`${url}/api/chat`, cookie, { sessionId: session.id, message: 'How is my trading overall?' });
      await readEvents(res, () => undefined);
      const [ask, answer] = provider.completions().slice(before, before + 2);
      if (!answer || !JSON.stringify(answer.body).includes('"tool"')) throw new Error('the tool result did not reach the model');
      if (i >= 0) samples.push(answer.receivedAt - ask!.receivedAt);
    }
    rows.push(summarize(SUITE, `chat tool call: ${label} (model asks -> model has the result)`, backend, samples, 'ms', TRADES_NOTE));
  }

  // 50 traders streaming at once: 100 chunks 10 ms apart each (about 1 s of answer).
  const traders = await Promise.all(
    Array.from({ length: quick ? 10 : 50 }, async () => {
      const c = await signUpFrom(url, nextLoopbackAddress());
      const s = (await (await fetch(`${url}/api/chat/sessions/current`, { headers: { cookie: c } })).json()) as { id: string };
      return { cookie: c, session: s.id };
    }),
  );
  provider.defaultReply = { chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 10 };
  const firsts: number[] = [];
  const totals: number[] = [];
  let errors = 0;
  const w0 = performance.now();
  await Promise.all(
    traders.map(async (t) => {
      const t0 = performance.now();
      const res = await post(`${url}/api/chat`, t.cookie, { sessionId: t.session, message: 'hello' });
      if (!res.ok) {
        errors++;
        await res.arrayBuffer();
        return;
      }
      let first = 0;
      let done = 0;
      let text = '';
      await readEvents(res, (e, at) => {
        if (e.type === 'text') {
          if (!first) first = at;
          text += e.delta;
        }
        if (e.type === 'done') done = at;
        if (e.type === 'error') errors++;
      });
      if (!text.startsWith('w0 w1')) errors++;
      firsts.push(first - t0);
      totals.push(done - t0);
    }),
  );
  const wall = performance.now() - w0;
  const note = `${traders.length} traders at once, ~1 s answers`;
  rows.push(summarize(SUITE, 'concurrent chat streams: time to first token', backend, firsts, 'ms', note));
  rows.push(summarize(SUITE, 'concurrent chat streams: whole answer stored', backend, totals, 'ms', note));
  rows.push(summarize(SUITE, 'concurrent chat streams: all done (wall clock)', backend, [wall], 'ms', note));
  rows.push(summarize(SUITE, 'concurrent chat streams: errors', backend, [errors], 'count', note));
  provider.defaultReply = { text: 'OK' };
  return rows;
}
