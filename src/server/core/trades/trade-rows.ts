import { z } from 'zod';
import { instantInput } from '../../../contract/common';
import { tradeFields } from '../../../contract/trades';
import { parseInstant } from '../../../domain/dates';
import { centsToDecimalString, MAX_MONEY_CENTS, MONEY_RANGE_MESSAGE, toCents } from '../../../domain/money';
import { normalizeTradeInput, readStoredDecimal, type NormalizedTrade } from '../../../domain/trades';
import { readTradePlan } from '../../../domain/risk';
import { badRequest } from '../../http/errors';
import type { FillRecord } from './fills';
import type { NewTradeRow } from './repo';

/**
 * A trade's stored columns from what a trader or a backup sent, with the limits the database would otherwise refuse
 * with a 500. No database and no request: a JSON backup is read with these in the parse worker.
 */

/** Stored columns from a normalized trade. */
export function toRow(trade: NormalizedTrade): NewTradeRow {
  return {
    symbol: trade.symbol,
    tradeDate: trade.tradeDate,
    dayOfWeek: trade.dayOfWeek,
    period: trade.period,
    tradeType: trade.tradeType,
    side: trade.side,
    status: trade.status,
    pnl: centsToDecimalString(trade.pnlCents),
    commission: centsToDecimalString(trade.commissionCents),
    link: trade.link,
    notes: trade.notes,
    tags: trade.tags,
  };
}

/** An amount of money within what a trade may carry (MAX_MONEY_CENTS), or a 400 naming the field. */
export function checkMoney(field: string, value: number, where: string) {
  if (!(Math.abs(value) <= MAX_MONEY_CENTS)) throw badRequest(`${where}${field}: ${MONEY_RANGE_MESSAGE}`);
}

/** Trading days a journal can hold: year 0 is no day PostgreSQL knows, and nobody traded futures in 1850. */
const FIRST_TRADE_YEAR = 1900;
const LAST_TRADE_YEAR = 2999;

/** The API's names of the fields the spec's 'Please fill in all required fields.' is about. */
const REQUIRED_FIELD_NAMES = { date: 'trade_date', session: 'period' } as const;

/** `where` prefixes a backup row's messages ("Row 3: "), `path` its fields ("trades.2."). */
export function normalizeOrThrow(raw: Record<string, unknown>, timeZone: string, where = '', path = ''): NormalizedTrade {
  const result = normalizeTradeInput(raw, { pnlBasis: 'net', timeZone });
  if (!result.ok && 'invalid' in result) throw badRequest(`${where}${result.error}`);
  if (!result.ok) {
    const fields = result.missing.map((name) => ({ field: `${path}${REQUIRED_FIELD_NAMES[name]}`, message: result.error }));
    throw badRequest(`${where}${result.error}`, { missing: result.missing, fields });
  }
  const year = Number(result.trade.tradeDay.slice(0, 4));
  if (!(year >= FIRST_TRADE_YEAR && year <= LAST_TRADE_YEAR)) {
    const key = ['trade_date', 'tradeDate', 'date'].find((k) => raw[k] !== undefined && raw[k] !== null) ?? 'trade_date';
    throw badRequest(`${where}${key}: must be a day between ${FIRST_TRADE_YEAR}-01-01 and ${LAST_TRADE_YEAR}-12-31`);
  }
  checkMoney('pnl', result.trade.pnlCents, where);
  checkMoney('commission', result.trade.commissionCents, where);
  return result.trade;
}

/**
 * Prices and quantities as a backup writes them (decimal text or numbers): anything else is left empty, as before; one
 * the numeric(24,8) columns cannot hold (17 digits before the point, a positive quantity that rounds to 0) is a 400.
 */
function decimalOrNull(value: unknown, field: string, options: { positive?: boolean } = {}): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  const read = readStoredDecimal(text, options);
  if (!read.ok) throw badRequest(`${field}: ${read.message}`);
  return read.value;
}

/**
 * An ISO timestamp with its offset (as exported) of a real day and time within years 1-9999; anything else was handed
 * to the database and failed with a 500 (year 0), or moved to another day (2026-02-30 as March 2).
 */
const readInstant = parseInstant;

function instantOrNull(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = readInstant(value);
  if (ms === null) throw badRequest(`${field}: must be an ISO timestamp with a time zone, e.g. 2025-03-03T14:35:00Z`);
  return new Date(ms).toISOString();
}

/**
 * A backup keeps each trade's created_at, so trades of the same day list (and count towards streaks) in the same
 * order after a restore. The export carries milliseconds, and an earlier import gives many trades one created_at;
 * trades that share one are spaced by a microsecond in file order (the export's newest first), which is the order
 * the id tie-break gave them before. Rows without a readable created_at get the database's now().
 */
function createdAtKeepingOrder(items: Array<Record<string, unknown>>): Array<string | undefined> {
  const taken = new Map<number, number>();
  return items.map((item) => {
    const ms = readInstant(item.created_at);
    if (ms === null) return undefined;
    const rank = taken.get(ms) ?? 0;
    taken.set(ms, rank + 1);
    const micros = ms * 1000 - rank;
    const wholeMs = Math.floor(micros / 1000);
    const fraction = String(micros - wholeMs * 1000).padStart(3, '0');
    return new Date(wholeMs).toISOString().replace('Z', `${fraction}Z`);
  });
}

/**
 * The rows of a JSON backup (GET /api/trades/export's shape) for one account, checked row by row: the first bad row
 * refuses the whole file with a 400 naming it ("Row 3: ..."). Each trade keeps its original id as its import key.
 */
export function backupRows(
  items: Array<Record<string, unknown>>,
  accountId: string,
  timeZone: string,
): Array<NewTradeRow & { fills: FillRecord[] | null }> {
  const createdAt = createdAtKeepingOrder(items);
  return items.map((item, index) => {
    const fills = backupFills(item.fills, `Row ${index + 1}: `);
    const where = `Row ${index + 1}: `;
    const checked = backupTradeRow.safeParse(item);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw badRequest(`${where}${issue.path.join('.')}: ${issue.message}`);
    }
    const trade = normalizeOrThrow(item, timeZone, where, `trades.${index}.`);
    const originalId = typeof item.id === 'string' && item.id ? item.id : null;
    const grossPnlCents = item.gross_pnl == null || item.gross_pnl === '' ? null : toCents(item.gross_pnl);
    if (grossPnlCents !== null) checkMoney('gross_pnl', grossPnlCents, where);
    // A backup's plan is restored as it was written; one that no longer checks out is refused naming its row.
    const plan = readTradePlan(item);
    if (!plan.ok) throw badRequest(`${where}${plan.field}: ${plan.message}`);
    return {
      ...toRow(trade),
      accountId,
      stopPrice: plan.value.stopPrice,
      riskAmount: plan.value.riskCents === null ? null : centsToDecimalString(plan.value.riskCents),
      targetPrice: plan.value.targetPrice,
      contract: typeof item.contract === 'string' ? item.contract : null,
      entryTime: instantOrNull(item.entry_time, `${where}entry_time`),
      exitTime: instantOrNull(item.exit_time, `${where}exit_time`),
      entryPrice: decimalOrNull(item.entry_price, `${where}entry_price`),
      exitPrice: decimalOrNull(item.exit_price, `${where}exit_price`),
      quantity: decimalOrNull(item.quantity, `${where}quantity`),
      grossPnl: grossPnlCents === null ? null : centsToDecimalString(grossPnlCents),
      importSource: typeof item.import_source === 'string' ? item.import_source : 'json-backup',
      // A row with fills but no id of its own gets one from its place and contents, so its fills find it.
      importKey: originalId
        ? `backup:${originalId}`
        : fills
          ? `backup-row:${index}:${JSON.stringify([item.trade_date ?? item.date, item.symbol, item.pnl])}`
          : null,
      ...(createdAt[index] && { createdAt: createdAt[index] }),
      fills,
    };
  });
}

/**
 * A backup row's fills, as the export writes them: time with its zone, side, quantity, price and the
 * fill's commission or null. A fill that cannot be read is a 400 naming the row and the fill.
 */
function backupFills(value: unknown, where: string): FillRecord[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw badRequest(`${where}fills: must be a list of fills`);
  if (value.length > 500) throw badRequest(`${where}fills: a trade holds at most 500 fills`);
  const fills = value.map((item: unknown, index): FillRecord => {
    const at = `${where}fills.${index}.`;
    const record = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
    const time = instantOrNull(record.time, `${at}time`);
    if (time === null) throw badRequest(`${at}time: must be an ISO timestamp with a time zone, e.g. 2025-03-03T14:35:00Z`);
    if (record.side !== 'Buy' && record.side !== 'Sell') throw badRequest(`${at}side: must be Buy or Sell`);
    const quantity = decimalOrNull(record.quantity, `${at}quantity`, { positive: true });
    if (quantity === null) throw badRequest(`${at}quantity: must be a positive number`);
    const price = decimalOrNull(record.price, `${at}price`);
    if (price === null) throw badRequest(`${at}price: must be a number`);
    const commission = decimalOrNull(record.commission, `${at}commission`);
    if (record.commission != null && (commission === null || Number(commission) < 0))
      throw badRequest(`${at}commission: must be an amount of 0 or more`);
    if (commission !== null) checkMoney('commission', toCents(commission), at);
    return { time, side: record.side, quantity, price, commission };
  });
  return fills.length > 0 ? fills : null;
}

/**
 * One row of a JSON backup (GET /api/trades/export): the same limits as a trade written by hand, plus the columns
 * only a backup carries. Nulls are what the export writes for empty columns. Other keys (account_name, day_of_week,
 * timestamps) are read or recomputed by the service.
 */
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
/** The export writes an empty time as null; a blank one is the same. */
const blankAsNull = (value: unknown) => (value === '' ? null : value);
export const backupTradeRow = z.looseObject({
  ...Object.fromEntries(Object.entries(tradeFields).map(([key, schema]) => [key, schema.nullable()])),
  id: nullable(z.union([z.string().max(200), z.number()])),
  side: nullable(z.string().max(20)),
  contract: nullable(z.string().max(100)),
  import_source: nullable(z.string().max(100)),
  entry_price: nullable(z.union([z.number(), z.string().max(100)])),
  exit_price: nullable(z.union([z.number(), z.string().max(100)])),
  quantity: nullable(z.union([z.number(), z.string().max(100)])),
  gross_pnl: nullable(z.union([z.number(), z.string().max(100)])),
  // Times Date.parse takes and PostgreSQL refuses (year 0, 2026-02-30) are a 400 naming the row and field.
  entry_time: z.preprocess(blankAsNull, instantInput().nullable().optional()),
  exit_time: z.preprocess(blankAsNull, instantInput().nullable().optional()),
});
