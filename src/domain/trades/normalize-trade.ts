import type { Cents } from '../money';
import { getDayName, type CalendarDay, type DayName } from '../dates/calendar-day';
import { resolveTradeDay, toTradeDateTimestamp } from '../dates/trade-date';
import { parseCommissionInput, parseMoneyInput } from './money-input';
import { parseTags } from './trade-options';
import { toNetPnlCents } from './trade-form';
import { deriveResultFromNet, type TradeResult } from './trade-result';
import { readTradeSide, separateSideFromSetup, type TradeSide } from './side';

/** What the server stores for a trade (columns of `trades`, camelCased). */
export interface NormalizedTrade {
  symbol: string;
  /** ISO timestamp of the trading day at 12:00 UTC. */
  tradeDate: string;
  /** The same day as 'yyyy-MM-dd', for grouping without parsing timestamps. */
  tradeDay: CalendarDay;
  dayOfWeek: DayName;
  /** The session (spec: period). */
  period: string;
  /** The setup (spec: trade_type); never a side word. */
  tradeType: string;
  /** Long or Short: the input's side, else a side typed as the setup (the spec's samples' LONG/SHORT). */
  side: TradeSide | null;
  status: TradeResult;
  /** NET of commission, integer cents. */
  pnlCents: Cents;
  /** Absolute, integer cents. */
  commissionCents: Cents;
  link: string;
  notes: string;
  tags: string[];
}

export type RequiredTradeField = 'date' | 'session';

/** The input keys a trade's date may come under, in the order they are read. */
const DATE_KEYS = ['trade_date', 'tradeDate', 'date'] as const;

export type NormalizeTradeResult =
  | { ok: true; trade: NormalizedTrade }
  | { ok: false; error: 'Please fill in all required fields.'; missing: RequiredTradeField[] }
  /** A date was given and is none: the key it came under, so the message names what the trader sent. */
  | { ok: false; error: string; invalid: (typeof DATE_KEYS)[number] };

export interface NormalizeTradeOptions {
  /**
   * Which pnl the input carries. The add/edit form sends 'beforeCommission' (its field is "PnL (before commission)");
   * a JSON backup of stored trades or an API client sending stored values sends 'net'. There is no default on
   * purpose: guessing wrong moves every number by the commission.
   */
  pnlBasis: 'beforeCommission' | 'net';
  /** The user's IANA zone, used only when the date arrives as a timestamp with an offset. */
  timeZone: string;
}

type RawTrade = Record<string, unknown>;

function pick(raw: RawTrade, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = raw[key];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/**
 * Raw form or API input (snake_case columns, camelCase, or the app's view-model names: instrument, session, type,
 * result) into the stored shape.
 * - Date and session are required ('Please fill in all required fields.'); a date that is given
 *   but is no date (2026-02-30, year 0, 'tomorrow') is refused naming its key.
 * - The result is not required: it is always derived from net pnl on save, so a chosen result
 *   never reaches storage.
 * - pnl and commission: non-numeric counts as 0; commission is stored absolute; stored pnl is net.
 * - day_of_week is recomputed from the date, whatever the input says.
 * - A missing symbol becomes 'Unknown' (instrument default).
 * - A side typed as the type (LONG, Short, Buy) is the side, not a setup: the setup is left empty.
 */
export function normalizeTradeInput(raw: RawTrade, options: NormalizeTradeOptions): NormalizeTradeResult {
  const missing: RequiredTradeField[] = [];
  const dateKey = DATE_KEYS.find((key) => raw[key] !== undefined && raw[key] !== null);
  const dateValue = dateKey === undefined ? undefined : raw[dateKey];
  const tradeDay = resolveTradeDay(dateValue, options.timeZone);
  // The spec's message is for a date left out; a date written wrong says which field and what it needs.
  if (!tradeDay && dateKey && !(typeof dateValue === 'string' && dateValue.trim() === '')) {
    return { ok: false, error: `${dateKey}: must be a date as yyyy-MM-dd or an ISO timestamp with its zone`, invalid: dateKey };
  }
  if (!tradeDay) missing.push('date');
  const period = text(pick(raw, 'period', 'session'));
  if (period === '') missing.push('session');
  if (!tradeDay || missing.length > 0) return { ok: false, error: 'Please fill in all required fields.', missing };

  const commissionCents = parseCommissionInput(pick(raw, 'commission'));
  const pnlInputCents = parseMoneyInput(pick(raw, 'pnl'));
  const pnlCents = options.pnlBasis === 'net' ? pnlInputCents : toNetPnlCents(pnlInputCents, commissionCents);
  const { side, setup } = separateSideFromSetup(readTradeSide(pick(raw, 'side')), text(pick(raw, 'trade_type', 'tradeType', 'type')));

  return {
    ok: true,
    trade: {
      symbol: text(pick(raw, 'symbol', 'instrument')) || 'Unknown',
      tradeDate: toTradeDateTimestamp(tradeDay),
      tradeDay,
      dayOfWeek: getDayName(tradeDay),
      period,
      tradeType: setup,
      side,
      status: deriveResultFromNet(pnlCents),
      pnlCents,
      commissionCents,
      link: text(pick(raw, 'link')),
      notes: typeof raw['notes'] === 'string' ? raw['notes'] : '',
      tags: parseTags(pick(raw, 'tags')),
    },
  };
}
