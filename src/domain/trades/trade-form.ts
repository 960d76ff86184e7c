import type { Cents } from '../money';
import { getDayName, type CalendarDay, type DayName } from '../dates/calendar-day';
import { deriveResult, type TradeResult } from './trade-result';

/**
 * PnL basis, decided once for the whole product:
 * - STORED pnl (trades.pnl, every API response, stats, calendar, AI context) is NET of commission
 *   (spec part 2 §3: "pnl (number, net of commission)").
 * - The FORM's pnl field is BEFORE commission (spec part 2 §2, add dialog: "PnL (before commission)").
 * Converting between them happens only through `toNetPnlCents` / `toGrossPnlCents`, so net = gross - |commission|.
 */
export function toNetPnlCents(pnlBeforeCommissionCents: Cents, commissionCents: Cents): Cents {
  return pnlBeforeCommissionCents - Math.abs(commissionCents) + 0;
}

export function toGrossPnlCents(netPnlCents: Cents, commissionCents: Cents): Cents {
  return netPnlCents + Math.abs(commissionCents) + 0;
}

/**
 * Spec part 2 §4, choosing a result while editing: Loss with a positive pnl makes it negative; Win with a negative
 * pnl makes it positive; BE sets it to 0. Other combinations keep the pnl.
 */
export function applyResultChoice(pnlCents: Cents, result: TradeResult): Cents {
  if (result === 'BE') return 0;
  if (result === 'Loss' && pnlCents > 0) return -pnlCents;
  if (result === 'Win' && pnlCents < 0) return -pnlCents;
  return pnlCents;
}

/**
 * Spec part 2 §4, entering a pnl while editing: a positive pnl while Loss is chosen becomes negative; a non-zero pnl
 * while BE is chosen resets to 0. A negative pnl while Win is chosen is kept (the spec names no coupling for it;
 * the result is derived again on save).
 */
export function applyPnlEntry(pnlCents: Cents, result: TradeResult): Cents {
  if (result === 'BE') return 0;
  if (result === 'Loss' && pnlCents > 0) return -pnlCents;
  return pnlCents + 0;
}

/** The add and edit dialogs' values. `pnlCents` is before commission (see above). */
export interface TradeFormValues {
  date: CalendarDay;
  /** Read-only, derived from `date` (spec part 2 §2). */
  day: DayName;
  instrument: string;
  session: string;
  type: string;
  result: TradeResult;
  pnlCents: Cents;
  commissionCents: Cents;
  link: string;
  notes: string;
  tags: string[];
}

/** Spec part 2 §9: a new trade is NQ, AM, A/A+, Win, pnl 0, commission 0. */
export const NEW_TRADE_DEFAULTS = {
  instrument: 'NQ',
  session: 'AM',
  type: 'A/A+',
  result: 'Win',
  pnlCents: 0,
  commissionCents: 0,
} as const satisfies Partial<TradeFormValues>;

/** The add dialog's initial values for `date` (pass today in the user's zone). */
export function createNewTradeForm(date: CalendarDay): TradeFormValues {
  return { ...NEW_TRADE_DEFAULTS, date, day: getDayName(date), link: '', notes: '', tags: [] };
}

export function selectFormResult(form: TradeFormValues, result: TradeResult): TradeFormValues {
  return { ...form, result, pnlCents: applyResultChoice(form.pnlCents, result) };
}

export function enterFormPnl(form: TradeFormValues, pnlCents: Cents): TradeFormValues {
  return { ...form, pnlCents: applyPnlEntry(pnlCents, form.result) };
}

export function changeFormDate(form: TradeFormValues, date: CalendarDay): TradeFormValues {
  return { ...form, date, day: getDayName(date) };
}

/** Result shown after save: derived from net pnl, overriding the chosen one (spec part 2 §4). */
export function deriveFormResult(form: Pick<TradeFormValues, 'pnlCents' | 'commissionCents'>): TradeResult {
  return deriveResult(form.pnlCents, form.commissionCents);
}

export interface StoredTradeForForm {
  tradeDay: CalendarDay;
  symbol: string;
  period: string;
  tradeType: string;
  status: TradeResult;
  /** Net of commission, as stored. */
  pnlCents: Cents;
  commissionCents: Cents;
  link: string;
  notes: string;
  tags: readonly string[];
}

/**
 * The edit dialog has no commission field (spec part 2 §2) but the same "PnL (before commission)" meaning, so it
 * shows net + commission and keeps the stored commission: saving without changes gives back the same net pnl.
 */
export function createEditTradeForm(trade: StoredTradeForForm): TradeFormValues {
  return {
    date: trade.tradeDay,
    day: getDayName(trade.tradeDay),
    instrument: trade.symbol,
    session: trade.period,
    type: trade.tradeType,
    result: trade.status,
    pnlCents: toGrossPnlCents(trade.pnlCents, trade.commissionCents),
    commissionCents: Math.abs(trade.commissionCents),
    link: trade.link,
    notes: trade.notes,
    tags: [...trade.tags],
  };
}
