import type { Trade } from '../../../contract/trades';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { computeRMultiple, resolvePlannedRisk, type RiskDefault, type RiskTrade } from '../../../domain/risk';
import { readTradeSide } from '../../../domain/trades/side';
import type { TradeRow } from './repo';

/** The trade's fields the domain prices its planned risk from (src/domain/risk). */
export function toRiskTrade(row: Omit<TradeRow, 'accountName'>): RiskTrade {
  return {
    accountId: row.accountId,
    symbol: row.symbol,
    contract: row.contract,
    side: readTradeSide(row.side),
    entryPrice: row.entryPrice,
    quantity: row.quantity,
    stopPrice: row.stopPrice,
    riskCents: row.riskAmount === null ? null : toCents(row.riskAmount),
    targetPrice: row.targetPrice,
  };
}

/**
 * The API's trade: stored columns plus the account name; money as exact decimal strings. `riskDefaults` are the
 * trader's defaults, which give a trade without its own plan its planned risk and R-multiple.
 */
export function toTradeDto(row: TradeRow, riskDefaults: readonly RiskDefault[] = []): Trade {
  const planned = resolvePlannedRisk(toRiskTrade(row), riskDefaults);
  return {
    id: row.id,
    account_id: row.accountId,
    account_name: row.accountName,
    trade_date: new Date(row.tradeDate).toISOString(),
    date: new Date(row.tradeDate).toISOString().slice(0, 10),
    day_of_week: row.dayOfWeek,
    symbol: row.symbol,
    period: row.period,
    trade_type: row.tradeType,
    // The column's check constraint allows only these three.
    status: row.status as Trade['status'],
    pnl: row.pnl,
    commission: row.commission,
    link: row.link,
    notes: row.notes,
    tags: row.tags,
    side: readTradeSide(row.side),
    contract: row.contract,
    entry_time: row.entryTime && new Date(row.entryTime).toISOString(),
    exit_time: row.exitTime && new Date(row.exitTime).toISOString(),
    entry_price: row.entryPrice,
    exit_price: row.exitPrice,
    quantity: row.quantity,
    gross_pnl: row.grossPnl,
    funding: row.funding ?? null,
    import_source: row.importSource,
    stop_price: row.stopPrice,
    risk_amount: row.riskAmount,
    target_price: row.targetPrice,
    planned_risk: planned && { amount: centsToDecimalString(planned.cents), source: planned.source },
    r_multiple: planned && computeRMultiple(toCents(row.pnl), planned.cents),
    mae: row.mae ?? null,
    mfe: row.mfe ?? null,
    // Against the trade: a MAE of half the planned risk is -0.5R.
    mae_r: planned && row.mae != null ? computeRMultiple(-toCents(row.mae), planned.cents) : null,
    mfe_r: planned && row.mfe != null ? computeRMultiple(toCents(row.mfe), planned.cents) : null,
    excursion_missing: missingOf(row.excursionMissing),
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
export type TradeDto = ReturnType<typeof toTradeDto>;

/** The stored missing stretches as instants (a driver may hand the JSON over as text). */
function missingOf(value: Array<{ from: number; to: number }> | string | null | undefined): Array<{ from: string; to: string }> | null {
  const ranges = typeof value === 'string' ? (JSON.parse(value) as Array<{ from: number; to: number }>) : value;
  if (!ranges || ranges.length === 0) return null;
  return ranges.map((range) => ({ from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() }));
}
