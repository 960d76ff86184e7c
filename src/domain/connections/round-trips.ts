import { Decimal, decimalToCents } from '../money';
import { buildTrades, ImportKeyAllocator, type DecorateOptions, type Fill, type ImportedTrade, type ImportIssue, type OpenPosition } from '../fills';
import { parseInstrument, pointValueOf } from '../instruments';

/**
 * Broker connections: fills a provider's API gave, turned into round trips by the imports' own FIFO rule
 * (buildTrades), incrementally. A sync does not fetch the whole history again: per contract it keeps the last point
 * where the position was flat, and the next sync rebuilds from the fills after it. Trades completed before that point
 * are stored already; a trade that a reversal closed after it is rebuilt from the same fills, so it gets the same
 * import key and is not stored twice.
 */

/** One execution as the connection stores it: the provider's id, its contract id, decimal strings. */
export interface SyncedFill {
  id: string;
  contractId: string;
  /** ISO-8601 instant. */
  time: string;
  side: 'Buy' | 'Sell';
  quantity: string;
  price: string;
  /** Dollars charged on this fill, >= 0. */
  fees: string;
  /** The P&L the provider reports on a fill that closes (part of) a position; null on one that opens. */
  pnl: string | null;
  voided: boolean;
}

/** How a provider's contract is journaled: the exchange's code (MNQM5), its root, and dollars per point. */
export interface ContractSpec {
  contract: string;
  root: string;
  /** From the provider's tick value and tick size; null when it gave none (our table of point values then). */
  pointValue: Decimal | null;
}

/** The last fill after which a contract's position was flat, in the order fills are read (time, then id). */
export interface FlatPoint {
  time: string;
  id: string;
}
export type FlatPoints = Record<string, FlatPoint>;

/**
 * ProjectX names a few contracts by its own symbol rather than the exchange's: its documentation's examples trade
 * CON.F.US.EP.H25 (the E-mini S&P 500, at S&P prices with $50 a point) and describe CON.F.US.ENQ.H25 as the E-mini
 * NASDAQ-100. The journal files them under ES and NQ, as every other broker's export does.
 */
const PROVIDER_ROOTS: Readonly<Record<string, string>> = { EP: 'ES', ENQ: 'NQ' };
const JOURNAL_ROOTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(PROVIDER_ROOTS).map(([provider, journal]) => [journal, provider]),
);

/** The provider's own root of a journal's root (ES: EP), to ask the provider for its contracts by name. */
export const providerRootOf = (root: string): string => JOURNAL_ROOTS[root] ?? root;

/**
 * The journal's contract for a provider's contract: its name (MNQM25, ENQM25), else its id (CON.F.US.MNQ.M25), read
 * like a file's contract names; dollars per point = tick value / tick size when the provider gives both.
 */
export function contractSpecOf(contractId: string, described: { name: string; tickSize: string; tickValue: string } | null): ContractSpec {
  const instrument = parseInstrument(described?.name || contractId);
  const root = PROVIDER_ROOTS[instrument.root] ?? instrument.root;
  const contract = instrument.isFuturesContract ? root + instrument.contract.slice(instrument.root.length) : instrument.contract;
  let pointValue: Decimal | null = null;
  if (described) {
    const tickSize = new Decimal(described.tickSize);
    const tickValue = new Decimal(described.tickValue);
    if (tickSize.gt(0) && tickValue.gt(0)) pointValue = tickValue.dividedBy(tickSize);
  }
  if (pointValue === null) {
    const known = pointValueOf({ root, isFuturesContract: instrument.isFuturesContract });
    if (!known.unknownFutures) pointValue = known.value;
  }
  return { contract, root, pointValue };
}

/** Provider ids are integers written as text: compared as numbers without losing digits. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The order fills are read in: time, then the provider's id (it numbers fills as they happen). */
export function compareFills(a: FlatPoint, b: FlatPoint): number {
  const at = Date.parse(a.time);
  const bt = Date.parse(b.time);
  return at - bt || compareIds(a.id, b.id);
}

export interface RoundTripsResult {
  /** Every round trip completed after the flat points, in entry order. */
  trades: ImportedTrade[];
  /** Positions still open: their fills wait for the next sync. */
  openPositions: OpenPosition[];
  /** Where the next sync starts, per contract. */
  flat: FlatPoints;
  /** What the builder had to say (an unknown contract's point value), without row numbers. */
  issues: ImportIssue[];
  /** Fills read after the flat points. */
  considered: number;
  /**
   * Fills that closed positions opened before the first fill the sync read (the trader chose to start in the middle
   * of one): their entries are not there, so they make no trade rather than a wrong one.
   */
  orphans: number;
}

/**
 * Round trips of one provider account from its stored fills: per contract, the fills after its flat point (all of
 * them for a contract seen for the first time), voided fills left out, in the provider's order, through buildTrades.
 */
export function roundTripsFromFills(
  fills: readonly SyncedFill[],
  flat: FlatPoints,
  contracts: ReadonlyMap<string, ContractSpec>,
  options: DecorateOptions = {},
): RoundTripsResult {
  const byContract = new Map<string, SyncedFill[]>();
  for (const fill of fills) {
    if (fill.voided) continue;
    const since = flat[fill.contractId];
    if (since && compareFills(fill, since) <= 0) continue;
    let list = byContract.get(fill.contractId);
    if (!list) byContract.set(fill.contractId, (list = []));
    list.push(fill);
  }
  const next: FlatPoints = { ...flat };
  const built: Fill[] = [];
  let orphans = 0;
  for (const [contractId, list] of byContract) {
    list.sort(compareFills);
    const spec = contracts.get(contractId) ?? contractSpecOf(contractId, null);
    let position = new Decimal(0);
    // A contract read for the first time may start with exits of a position opened before the sync's first day: the
    // provider marks them with their P&L (an opening fill has none). They are left out until the first opening fill.
    let leading = flat[contractId] === undefined;
    for (const fill of list) {
      if (leading && fill.pnl !== null) {
        orphans += 1;
        continue;
      }
      leading = false;
      const quantity = new Decimal(fill.quantity);
      position = fill.side === 'Buy' ? position.plus(quantity) : position.minus(quantity);
      if (position.isZero()) next[contractId] = { time: fill.time, id: fill.id };
      const converted: Fill = {
        rows: [built.length + 1],
        account: '',
        contract: spec.contract,
        root: spec.root,
        side: fill.side,
        quantity,
        price: new Decimal(fill.price),
        time: Date.parse(fill.time),
        commission: decimalToCents(new Decimal(fill.fees).abs()),
        id: fill.id,
        seq: built.length,
      };
      if (spec.pointValue !== null) converted.pointValue = spec.pointValue;
      built.push(converted);
    }
  }
  const result = buildTrades(built, { ...options, keys: new ImportKeyAllocator() });
  return {
    trades: result.trades,
    openPositions: result.openPositions,
    flat: next,
    issues: result.issues.map((issue) => ({ ...issue, row: 0 })),
    considered: built.length,
    orphans,
  };
}
