import { formatShortDay, isCalendarDay } from '../../../domain/dates';
import { PNL_NEGATIVE, PNL_POSITIVE } from '../../components/pnl-value';
import { formatMoney, toCents, type Cents } from '../../../domain/money';
import { currencyOfContract } from '../../../domain/instruments/perpetuals';
import type { Trade } from '../../shared/api';

/** 'Mar 9, 2026' for a trading day 'yyyy-MM-dd'. */
export function formatTradeDay(day: string): string {
  return isCalendarDay(day) ? `${formatShortDay(day)}, ${day.slice(0, 4)}` : day;
}

/** Which trade a button acts on, for its accessible name: 'NQ, Mar 9, 2026'. */
export const tradeName = (trade: Pick<Trade, 'symbol' | 'date'>): string => `${trade.symbol}, ${formatTradeDay(trade.date)}`;

export const pnlCentsOf = (trade: Pick<Trade, 'pnl'>): Cents => toCents(trade.pnl);

/** Net PnL as the table shows it: '$1,250.00', '-$95.50'; a crypto perpetual's in its currency: '12.50 USDT'. */
export const formatTradePnl = (trade: Pick<Trade, 'pnl'> & { contract?: string | null }): string =>
  formatMoney(pnlCentsOf(trade), currencyOfContract(trade.contract));

/** The currency a trade's money is shown in: its contract's settlement currency, else USD. */
export const tradeCurrency = (trade: { contract?: string | null }) => currencyOfContract(trade.contract);

/** AA contrast in both themes (components/pnl-value's tones); nothing gained or lost is dimmed. */
export const pnlColor = (cents: Cents) => (cents > 0 ? PNL_POSITIVE : cents < 0 ? PNL_NEGATIVE : 'dimmed');

/** The Trade Account column shows Unassigned, or Unknown Account for a vanished account (the Daily Journal's too). */
export { accountLabel } from '../accounts/account-label';
