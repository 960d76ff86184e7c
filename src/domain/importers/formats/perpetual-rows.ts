import { Decimal, decimalToCents, parseDecimal } from '../../money';
import { perpetualContract, type PerpetualVenue, type SettlementCurrency } from '../../instruments';
import type { FormatParseResult } from '../types';
import { emptyResult } from './common';
import { fillId } from '../../fills/import-key';

/**
 * The fills of a crypto exchange's trade-history export, as the journal files them: the exchange's perpetual under the
 * same name a connection to it gives (BINANCE:BTCUSDT.P), so a trade imported and the same trade synced are one
 * trade. Money is in the contract's settlement currency: a fee charged in it is the fill's commission; a fee charged in
 * another asset (BNB) is not converted (Edgebook has no price for it) and the preview says how much was left out.
 *
 * The trades are built one-way, by the imports' FIFO rule: an export does not say which side of a hedge-mode account a
 * fill belonged to. A file that starts with closes of positions opened before it makes no trade of them.
 */

export interface PerpetualRow {
  row: number;
  /** The perpetual, read from the file's symbol; null when the symbol is not one (spot, inverse). */
  perpetual: { base: string; quote: SettlementCurrency } | null;
  symbolText: string;
  side: 'Buy' | 'Sell';
  quantity: Decimal;
  price: Decimal;
  /** Epoch ms. */
  time: number;
  /** The fee paid (negative: a rebate), and its asset; null when the file has none. */
  fee: Decimal | null;
  feeAsset: string | null;
  /** The file says the fill closed (part of) a position (true), opened one (false), or does not say (null). */
  closing: boolean | null;
  id?: string;
}

export function perpetualFills(
  venue: PerpetualVenue,
  namespace: string,
  rows: readonly PerpetualRow[],
  result: FormatParseResult = emptyResult(),
): FormatParseResult {
  result.costsInFile = true;
  const ordered = [...rows].sort((a, b) => a.time - b.time || a.row - b.row);
  const positions = new Map<string, Decimal>();
  const seen = new Set<string>();
  const elsewhere = new Map<string, Decimal>();
  let orphans = 0;
  for (const row of ordered) {
    if (!row.perpetual) {
      result.ignored[`rows of ${row.symbolText} (not a USDT or USDC perpetual)`] =
        (result.ignored[`rows of ${row.symbolText} (not a USDT or USDC perpetual)`] ?? 0) + 1;
      continue;
    }
    const contract = perpetualContract(venue, row.perpetual.base, row.perpetual.quote);
    const position = positions.get(contract) ?? new Decimal(0);
    if (!seen.has(contract) && position.isZero() && row.closing === true) {
      orphans += 1;
      continue;
    }
    seen.add(contract);
    positions.set(contract, row.side === 'Buy' ? position.plus(row.quantity) : position.minus(row.quantity));
    let commission = 0;
    if (row.fee !== null) {
      if (row.feeAsset === null || row.feeAsset.toUpperCase() === row.perpetual.quote) commission = Math.max(0, decimalToCents(row.fee));
      else elsewhere.set(row.feeAsset.toUpperCase(), (elsewhere.get(row.feeAsset.toUpperCase()) ?? new Decimal(0)).plus(row.fee));
    }
    result.fills.push({
      rows: [row.row],
      account: '',
      contract,
      root: row.perpetual.base,
      side: row.side,
      quantity: row.quantity,
      price: row.price,
      time: row.time,
      commission,
      pointValue: new Decimal(1),
      ...(row.id ? { id: fillId(namespace, row.id) } : {}),
    });
  }
  if (orphans > 0) {
    result.issues.push({
      row: 0,
      severity: 'warning',
      message: `${orphans} ${orphans === 1 ? 'fill closes a position' : 'fills close positions'} opened before the file's first row: no trade is made of ${orphans === 1 ? 'it' : 'them'}`,
    });
  }
  for (const [asset, amount] of elsewhere) {
    result.issues.push({
      row: 0,
      severity: 'warning',
      message: `Fees of ${amount.toFixed()} ${asset} are kept out of the trades' commission: they were charged in ${asset}, not in the trades' currency`,
    });
  }
  return result;
}

/** A symbol of a USDT- or USDC-settled contract: BTCUSDT, 1000PEPEUSDC; Bybit names its USDC perpetuals BTCPERP. */
export function linearSymbol(symbol: string): { base: string; quote: SettlementCurrency } | null {
  const text = symbol.trim().toUpperCase().replace(/[-_/]/g, '');
  const match = /^([A-Z0-9]+?)(USDT|USDC|PERP)$/.exec(text);
  if (!match) return null;
  return { base: match[1]!, quote: match[2] === 'USDT' ? 'USDT' : 'USDC' };
}

/** An amount a cell may write with its asset: '0.42', '0.42 USDT', '-0.00012 BNB'. */
export function amountWithAsset(text: string): { amount: Decimal; asset: string | null } | null {
  const match = /^\s*([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*([A-Za-z][A-Za-z0-9]*)?\s*$/.exec(text);
  if (!match) return null;
  const amount = parseDecimal(match[1]!);
  return amount === null ? null : { amount, asset: match[2] ? match[2].toUpperCase() : null };
}
