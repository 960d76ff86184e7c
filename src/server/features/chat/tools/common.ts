import { z } from 'zod';
import { calendarDay, isRequestDay } from '../../../../contract/common';
import { describeBasis } from '../../../../domain/chat';
import { formatUsd, type Cents } from '../../../../domain/money';
import type { Database } from '../../../db/client';
import type { Logger } from '../../../logger';
import { chatTradeData, type ChatTradeData, type TradeFilter } from '../trade-data';

/**
 * What every chat tool shares (issue 9): the trader it runs for (from the session, never from the model's
 * arguments), the filter arguments the model may pass, and the "computed from" line each result carries, which the
 * answer shows under itself.
 */
export interface ToolContext {
  database: Database;
  userId: string;
  timeZone: string;
  today: string;
  /** The request's moment: date presets ("last 90 days") end today in the trader's zone. */
  now: Date;
  /** Where a tool's failure is told in full; the model only reads that it failed (guard.ts). */
  logger: Logger;
}

/** A day of years 1-9999 that exists: year 0 passed, and the database refused it (issue 25, point 8). */
export const day = calendarDay('must be a date as yyyy-MM-dd').describe('A trading day as yyyy-MM-dd');

export const filterInput = z.object({
  from: day.optional().describe('First trading day, yyyy-MM-dd (inclusive)'),
  to: day.optional().describe('Last trading day, yyyy-MM-dd (inclusive)'),
  account: z.string().max(200).optional().describe("A trading account's name (or 'unassigned'); all accounts when omitted"),
  symbol: z.string().max(30).optional().describe('An instrument root such as NQ, ES, MNQ, BTC'),
  session: z.string().max(50).optional().describe('A session such as AM, Lunch, PM, Overnight'),
  setup: z.string().max(100).optional().describe('A setup (trade type) such as Breakout; never a side'),
  side: z.enum(['Long', 'Short']).optional().describe('The side: Long or Short'),
});
export type FilterInput = z.infer<typeof filterInput>;

/** A tool's answer when the model asked for something the trader does not have or that makes no sense. */
export interface ToolRefusal {
  error: string;
}

/** The model's filter, checked and resolved against this trader's own accounts. */
export async function resolveFilter(data: ChatTradeData, input: FilterInput): Promise<TradeFilter | ToolRefusal> {
  for (const [name, value] of [['from', input.from], ['to', input.to]] as const) {
    if (value !== undefined && !isRequestDay(value)) return { error: `${name}: must be a date as yyyy-MM-dd` };
  }
  let accountId: string | undefined;
  if (input.account && input.account.trim().toLowerCase() !== 'all') {
    const wanted = input.account.trim().toLowerCase();
    if (wanted === 'unassigned') accountId = 'unassigned';
    else {
      const match = (await data.accounts()).find((a) => a.id === input.account || a.name.toLowerCase() === wanted);
      if (!match) return { error: `No trading account named "${input.account}"` };
      accountId = match.id;
    }
  }
  return { from: input.from, to: input.to, accountId, symbol: input.symbol, session: input.session, setup: input.setup, side: input.side };
}

export const isRefusal = (value: unknown): value is ToolRefusal => typeof value === 'object' && value !== null && 'error' in value;

export const money = (cents: Cents) => formatUsd(cents);
export const percent = (value: number) => `${value.toFixed(1)}%`;

/**
 * The figures' basis, shown under the answer: 'computed from 412 trades, Jun 1 to Jun 30' with the filters named.
 * The days are the first and last trading days that had a trade.
 */
export interface ToolBasis {
  trades: number;
  from: string | null;
  to: string | null;
  filters: string[];
  text: string;
}

export function basisOf(days: ReadonlyArray<{ date: string; trades: number }>, input: FilterInput): ToolBasis {
  const trades = days.reduce((n, d) => n + d.trades, 0);
  const from = days[0]?.date ?? input.from ?? null;
  const to = days[days.length - 1]?.date ?? input.to ?? null;
  const filters = [
    input.account && `account ${input.account}`,
    input.symbol && input.symbol.toUpperCase(),
    input.session && `${input.session} session`,
    input.setup && `${input.setup} setups`,
    input.side && `${input.side.toLowerCase()} trades`,
  ].filter((f): f is string => Boolean(f));
  return { trades, from, to, filters, text: describeBasis({ trades, from, to, filters }) };
}

/** Runs a tool's query as the trader (row-level security applies) with a friendly refusal on bad arguments. */
export function withData<T>(ctx: ToolContext, run: (data: ChatTradeData) => Promise<T>): Promise<T> {
  return ctx.database.withUser(ctx.userId, (tx) => run(chatTradeData(tx, ctx.userId)));
}
