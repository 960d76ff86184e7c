import { expect } from 'vitest';
import { uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/** Helpers shared by the trades API tests (tests/api/trades-*.test.ts, trade-preferences.test.ts). */

/** A new trader, signed up and signed in, with their own cookie jar and loopback address. */
export async function newTrader(app: TestApp, prefix = 'trader'): Promise<ApiClient> {
  const client = app.client();
  const res = await client.signUp(uniqueEmail(prefix));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return client;
}

export async function createAccount(client: ApiClient, name: string, extra: Record<string, unknown> = {}) {
  const res = await client.post('/api/accounts', { name, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; is_default: boolean };
}

export async function createTrade(client: ApiClient, input: Record<string, unknown>) {
  const res = await client.post('/api/trades', { period: 'AM', date: '2025-03-03', ...input });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TradeDto;
}

/** Bulk insert through the backup import (one request, one transaction). */
export async function importTrades(client: ApiClient, accountId: string, trades: Array<Record<string, unknown>>) {
  const res = await client.post('/api/trades/import', { account_id: accountId, trades });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { imported: number; skipped: number };
}

/** Every trade of a filter, walking the keyset pages. */
export async function listAll(client: ApiClient, query = '', limit = 500): Promise<TradeDto[]> {
  const out: TradeDto[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const res = await client.get(`/api/trades?${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.trades);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

export interface TradeDto {
  id: string;
  account_id: string | null;
  account_name: string | null;
  trade_date: string;
  date: string;
  day_of_week: string;
  symbol: string;
  period: string;
  trade_type: string;
  status: string;
  pnl: string;
  commission: string;
  link: string;
  notes: string;
  tags: string[];
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

/** "12.34" / "-0.05" -> integer cents, exactly (no float arithmetic). */
export function cents(decimal: string): number {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(decimal);
  if (!m) throw new Error(`not a 2-decimal money string: ${decimal}`);
  const value = Number(m[2]) * 100 + Number(m[3]);
  return m[1] ? -value : value;
}

/** Integer cents -> "12.34" without floats. */
export function money(c: number): string {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A small deterministic PRNG so failures reproduce. */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 'yyyy-MM-dd' `n` days after `day` (UTC arithmetic on calendar days). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
