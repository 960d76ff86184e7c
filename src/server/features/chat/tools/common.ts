import { z } from 'zod';
import { calendarDay } from '../../../../contract/common';
import { formatUsd, type Cents } from '../../../../domain/money';
import type { Database } from '../../../db/client';
import type { Logger } from '../../../logger';
import { chatTradeData, type ChatTradeData } from '../trade-data';

/**
 * What every chat tool shares: the trader it runs for (from the session, never from the model's
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

/** A day of years 1-9999 that exists: year 0 passed, and the database refused it. */
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

export type { ToolBasis, ToolRefusal } from '../trade-scope';
export { isRefusal } from '../trade-scope';

export const money = (cents: Cents) => formatUsd(cents);
export const percent = (value: number) => `${value.toFixed(1)}%`;

/** Runs a query as the trader (row-level security applies): what a tool reads besides the engine (the trader's writing). */
export function withData<T>(ctx: ToolContext, run: (data: ChatTradeData) => Promise<T>): Promise<T> {
  return ctx.database.withUser(ctx.userId, (tx) => run(chatTradeData(tx, ctx.userId)));
}
