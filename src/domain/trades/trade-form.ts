import type { Cents } from '../money';
import { getDayName, type CalendarDay, type DayName } from '../dates/calendar-day';
import { deriveResult, deriveResultFromNet, type TradeResult } from './trade-result';

/**
 * PnL basis, decided once for the whole product:
 * - STORED pnl (trades.pnl, every API response, stats, calendar, AI context) is NET of commission
 *   ("pnl (number, net of commission)").
 * - The FORM's pnl field is BEFORE commission (add dialog: "PnL (before commission)").
 * Converting between them happens only through `toNetPnlCents` / `toGrossPnlCents`, so net = gross - |commission|.
 */
export function toNetPnlCents(pnlBeforeCommissionCents: Cents, commissionCents: Cents): Cents {
  return pnlBeforeCommissionCents - Math.abs(commissionCents) + 0;
}

export function toGrossPnlCents(netPnlCents: Cents, commissionCents: Cents): Cents {
  return netPnlCents + Math.abs(commissionCents) + 0;
}

/**
 * Choosing a result while editing: Loss with a positive pnl makes it negative; Win with a negative
 * pnl makes it positive; BE sets it to 0. Other combinations keep the pnl.
 */
export function applyResultChoice(pnlCents: Cents, result: TradeResult): Cents {
  if (result === 'BE') return 0;
  if (result === 'Loss' && pnlCents > 0) return -pnlCents;
  if (result === 'Win' && pnlCents < 0) return -pnlCents;
  return pnlCents;
}

/**
 * Entering a pnl while editing: a positive pnl while Loss is chosen becomes negative; a non-zero pnl
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
  /** Read-only, derived from `date`. */
  day: DayName;
  instrument: string;
  session: string;
  type: string;
  /**
   * The result the trader chose (or the stored one): it drives those couplings as they type. What the Result
   * control shows is `tradeFormOutcome(form).result`, the result that will be saved.
   */
  result: TradeResult;
  pnlCents: Cents;
  commissionCents: Cents;
  link: string;
  notes: string;
  tags: string[];
}

/** A new trade is NQ, AM, A/A+, Win, pnl 0, commission 0. */
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

/** One change the trader makes to the amounts or the result, in the dialog or in inline edit. */
export type TradeFormEdit =
  { field: 'result'; result: TradeResult } | { field: 'pnl'; pnlCents: Cents } | { field: 'commission'; commissionCents: Cents };

/**
 * The one rule both trade forms (Add/Edit Trade and inline edit) apply as the trader types: choosing a
 * result couples the pnl to it, a pnl typed under Loss turns negative and under BE stays 0, a commission is
 * absolute. The chosen result is kept apart from the one shown (tradeFormOutcome): a pnl typed through an amount smaller
 * than the commission (2 on the way to 25, with $4.28 fees) would otherwise flip the couplings to Loss mid-number.
 */
export function editTradeForm(form: TradeFormValues, edit: TradeFormEdit): TradeFormValues {
  switch (edit.field) {
    case 'result':
      return { ...form, result: edit.result, pnlCents: applyResultChoice(form.pnlCents, edit.result) };
    case 'pnl':
      return { ...form, pnlCents: applyPnlEntry(edit.pnlCents, form.result) };
    case 'commission':
      return { ...form, commissionCents: Math.abs(edit.commissionCents) + 0 };
  }
}

/** What a form will save, shown while the trader types: the net pnl and the result it gives. */
export interface TradeFormOutcome {
  /** Stored pnl: before-commission pnl less the commission. */
  netCents: Cents;
  /** The result saved (from net pnl, overriding the chosen one), and so the one the Result control shows. */
  result: TradeResult;
  /** Nothing entered yet ($0 and no commission): the control shows the chosen result, which a $0 trade saves as BE. */
  blank: boolean;
}

/**
 * The result the Result control shows is the one that will be saved (Win was shown above 'saved as Loss').
 * Only a blank form ($0, no commission) shows the chosen result: a new trade opens on Win, not on the BE
 * that $0 would save.
 */
export function tradeFormOutcome(form: Pick<TradeFormValues, 'pnlCents' | 'commissionCents' | 'result'>): TradeFormOutcome {
  const netCents = toNetPnlCents(form.pnlCents, form.commissionCents);
  const blank = form.pnlCents === 0 && form.commissionCents === 0;
  return { netCents, result: blank ? form.result : deriveResultFromNet(netCents), blank };
}

export function changeFormDate(form: TradeFormValues, date: CalendarDay): TradeFormValues {
  return { ...form, date, day: getDayName(date) };
}

/** The result saved: derived from net pnl, overriding the chosen one. */
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
 * The edit dialog has no commission field but the same "PnL (before commission)" meaning, so it
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
