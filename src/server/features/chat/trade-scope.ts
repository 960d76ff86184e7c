import { isRequestDay } from '../../../contract/common';
import { describeBasis } from '../../../domain/chat';
import type { CalendarDay } from '../../../domain/dates';
import {
  aggregateRowsByDay,
  createReportFilter,
  resolveReportRange,
  selectTrades,
  UNASSIGNED,
  type ReportFilter,
  type TextColumn,
  type TradeSet,
} from '../../../domain/reports';
import type { DailyAggregate } from '../../../domain/stats';
import { withReportScope, type ReportScope } from '../../core/engine/scope';
import { narrowing } from '../../core/engine/search';
import { tradesRepo, type TradeRow } from '../../core/trades/repo';
import type { Database } from '../../db/client';

/**
 * The trades a chat tool (or the question's context) means, from the engine: the trader's ordered trade set, the
 * model's filter resolved into the filter model every screen uses (the account by name, instruments, sessions and
 * setups as the trader spells them in any case), narrowed by the Trade Log's search for a text. The trader is the
 * session's, never the model's.
 */
export interface ChatFilterInput {
  from?: string;
  to?: string;
  /** A trading account's name or id, 'unassigned', or 'all'. */
  account?: string;
  symbol?: string;
  session?: string;
  setup?: string;
  side?: 'Long' | 'Short';
  result?: 'Win' | 'Loss' | 'BE';
  /** Found as the Trade Log's search finds it (notes, tags, instrument, setup...). */
  text?: string;
}

/** A tool's answer when the model asked for something the trader does not have or that makes no sense. */
export interface ToolRefusal {
  error: string;
}

/** The figures' basis, shown under the answer: 'computed from 412 trades, Jun 1 to Jun 30' with the filters named. */
export interface ToolBasis {
  trades: number;
  from: string | null;
  to: string | null;
  filters: string[];
  text: string;
}

export interface ChatTrades {
  /** The filter's trades, in trading order. */
  set: TradeSet;
  /** Their sums per trading day, in day order. */
  days: DailyAggregate[];
  basis: ToolBasis;
  scope: ReportScope;
  /** The stored trades of these rows, in the rows' order (for what the copy does not hold: notes, times as stored). */
  details(rows: ArrayLike<number>): Promise<TradeRow[]>;
}

/** The stored values of a text column equal to `wanted` in any case (none found: `wanted` itself, which matches nothing). */
function spellings(column: TextColumn, wanted: string | undefined): string[] {
  if (!wanted) return [];
  const key = wanted.trim().toLowerCase();
  const found = column.values.filter((value): value is string => value !== null && value.toLowerCase() === key);
  return found.length > 0 ? found : [wanted];
}

/** The account the model named: by id or name (any case), 'unassigned'; undefined for all; null when the trader has none such. */
function resolveAccount(accounts: ReadonlyMap<string, string>, wanted: string | undefined): string | undefined | null {
  if (!wanted || wanted.trim().toLowerCase() === 'all') return undefined;
  const key = wanted.trim().toLowerCase();
  if (key === UNASSIGNED) return UNASSIGNED;
  for (const [id, name] of accounts) if (id === wanted || name.toLowerCase() === key) return id;
  return null;
}

function basisOf(days: readonly DailyAggregate[], input: ChatFilterInput): ToolBasis {
  const trades = days.reduce((n, d) => n + d.trades, 0);
  const from = days[0]?.date ?? input.from ?? null;
  const to = days[days.length - 1]?.date ?? input.to ?? null;
  const filters = [
    input.account && input.account.trim().toLowerCase() !== 'all' && `account ${input.account}`,
    input.symbol && input.symbol.toUpperCase(),
    input.session && `${input.session} session`,
    input.setup && `${input.setup} setups`,
    input.side && `${input.side.toLowerCase()} trades`,
  ].filter((f): f is string => Boolean(f));
  return { trades, from, to, filters, text: describeBasis({ trades, from, to, filters }) };
}

export async function withChatTrades<T>(
  ctx: { database: Database; userId: string; now: Date },
  input: ChatFilterInput,
  use: (trades: ChatTrades) => T | Promise<T>,
): Promise<T | ToolRefusal> {
  for (const [name, value] of [
    ['from', input.from],
    ['to', input.to],
  ] as const) {
    if (value !== undefined && !isRequestDay(value)) return { error: `${name}: must be a date as yyyy-MM-dd` };
  }
  const days: ReportFilter = createReportFilter(
    input.from || input.to ? { range: 'custom', from: (input.from as CalendarDay) ?? null, to: (input.to as CalendarDay) ?? null } : {},
  );
  const search = input.text?.trim() ? narrowing(ctx.database, ctx.userId, { q: input.text }) : null;
  return withReportScope(ctx.database, ctx.userId, days, ctx.now, async (scope) => {
    const account = resolveAccount(scope.accounts, input.account);
    if (account === null) return { error: `No trading account named "${input.account}"` } satisfies ToolRefusal;
    const { columns } = scope;
    const filter: ReportFilter = {
      ...days,
      account: account === undefined ? [] : [account],
      symbol: spellings(columns.symbol, input.symbol),
      session: spellings(columns.session, input.session),
      setup: spellings(columns.setup, input.setup),
      side: input.side ? [input.side] : [],
      result: input.result ? [input.result] : [],
    };
    let set = selectTrades(columns, filter, resolveReportRange(filter, ctx.now, scope.timeZone), scope.timeZone);
    if (search) set = { columns, rows: await search.apply({ set, accountName: scope.accountName }) };
    const perDay = aggregateRowsByDay(set);
    return use({
      set,
      days: perDay,
      basis: basisOf(perDay, input),
      scope,
      async details(rows) {
        const ids = Array.from(rows, (i) => columns.id[i]!);
        if (ids.length === 0) return [];
        const found = await ctx.database.withUser(ctx.userId, (tx) => tradesRepo(tx, ctx.userId).findMany(ids));
        const byId = new Map(found.map((row) => [row.id, row]));
        return ids.flatMap((id) => byId.get(id) ?? []);
      },
    });
  });
}

export const isRefusal = (value: unknown): value is ToolRefusal => typeof value === 'object' && value !== null && 'error' in value;

/** The rows of a set, newest first in the trading order. */
export function newestFirst(set: TradeSet, limit: number): Uint32Array {
  const { rows } = set;
  const out = new Uint32Array(Math.min(limit, rows.length));
  for (let k = 0; k < out.length; k++) out[k] = rows[rows.length - 1 - k]!;
  return out;
}

/** The rows of a set by net P&L, best (or worst) first; equal P&L newest first. */
export function byPnl(set: TradeSet, order: 'best' | 'worst', limit: number): Uint32Array {
  const { pnl } = set.columns;
  const position = new Map<number, number>();
  set.rows.forEach((i, k) => position.set(i, k));
  const sorted = Array.from(set.rows).sort(
    (a, b) => (order === 'best' ? pnl[b]! - pnl[a]! : pnl[a]! - pnl[b]!) || position.get(b)! - position.get(a)!,
  );
  return Uint32Array.from(sorted.slice(0, limit));
}
