import { getFuturesRoot, POINT_VALUES } from '../instruments';
import { Decimal } from '../money';
import type { PropTrade } from './types';

/**
 * Micro contracts and the full-size contract they count against in a firm's position limit (10 MNQ = 1 NQ). The
 * ratio is the ratio of their point values, from the one table of point values, so it cannot drift from pricing.
 */
const MICRO_OF: Readonly<Record<string, string>> = {
  MNQ: 'NQ', MES: 'ES', MYM: 'YM', M2K: 'RTY', MGC: 'GC', SIL: 'SI', MHG: 'HG', MCL: 'CL', QM: 'CL', QG: 'NG',
  MBT: 'BTC', MET: 'ETH', M6E: '6E', M6B: '6B', M6A: '6A',
};

export interface PositionFamily {
  /** The full-size root the position counts against. */
  root: string;
  /** How many of this contract make one full-size contract (1 for a full-size one). */
  ratio: number;
}

const families = new Map<string, PositionFamily | null>();

/** The family of a symbol, remembered: an account's trades name a handful of contracts. */
export function positionFamilyOf(symbol: string | null): PositionFamily | null {
  if (!symbol) return null;
  let family = families.get(symbol);
  if (family === undefined) {
    family = findFamily(symbol);
    if (families.size >= 10_000) families.clear();
    families.set(symbol, family);
  }
  return family;
}

function findFamily(symbol: string): PositionFamily | null {
  const root = getFuturesRoot(symbol);
  if (!root) return null;
  const full = MICRO_OF[root];
  if (!full) return { root, ratio: 1 };
  const ratio = new Decimal(POINT_VALUES[full] ?? '1').dividedBy(POINT_VALUES[root] ?? '1');
  return { root: full, ratio: ratio.isInteger() && ratio.gt(0) ? ratio.toNumber() : 1 };
}

export interface PositionPeak {
  root: string;
  /** Full-size contracts, exact to the micro (e.g. 5.3). */
  contracts: number;
  /** The trade whose entry reached the peak, and when. */
  tradeId: string;
  at: string | null;
}

export interface PositionExcess extends PositionPeak {
  day: string;
}

/**
 * The largest position open at once per instrument family, in full-size contracts, from the trades' entry and exit
 * times (a round trip is open from its entry to its exit); a trade without times counts alone. Exits at an instant
 * come before entries at the same instant: a flip or a re-entry is not two positions at once. Counting happens in
 * micro units (integers) so that 10 MNQ is exactly 1 NQ.
 */
export function findPositionExcesses(trades: readonly PropTrade[], maxContracts: number): {
  peaks: PositionPeak[];
  excesses: PositionExcess[];
} {
  interface Event {
    ms: number;
    delta: number;
    trade: PropTrade;
    entry: boolean;
  }
  const byRoot = new Map<string, { ratio: number; events: Event[]; alone: Array<{ units: number; trade: PropTrade }> }>();
  const lcm = (a: number, b: number) => {
    const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
    return (a / gcd(a, b)) * b;
  };
  // Every family's unit is its smallest contract: a full-size contract is `ratio` units.
  const familyRatio = new Map<string, number>();
  for (const trade of trades) {
    const family = positionFamilyOf(trade.symbol);
    if (!family || trade.quantity === null) continue;
    familyRatio.set(family.root, lcm(familyRatio.get(family.root) ?? 1, family.ratio));
  }
  for (const trade of trades) {
    const family = positionFamilyOf(trade.symbol);
    if (!family || trade.quantity === null || !(trade.quantity > 0)) continue;
    const unitsPerFull = familyRatio.get(family.root)!;
    const units = Math.round(trade.quantity * (unitsPerFull / family.ratio));
    let slot = byRoot.get(family.root);
    if (!slot) byRoot.set(family.root, (slot = { ratio: unitsPerFull, events: [], alone: [] }));
    const entry = trade.entryAt ? Date.parse(trade.entryAt) : Number.NaN;
    const exit = trade.exitAt ? Date.parse(trade.exitAt) : Number.NaN;
    if (Number.isFinite(entry) && Number.isFinite(exit)) {
      slot.events.push({ ms: entry, delta: units, trade, entry: true }, { ms: Math.max(exit, entry), delta: -units, trade, entry: false });
    } else {
      slot.alone.push({ units, trade });
    }
  }
  const peaks: PositionPeak[] = [];
  const excesses: PositionExcess[] = [];
  for (const [root, slot] of byRoot) {
    const limitUnits = maxContracts * slot.ratio;
    let peak: PositionPeak | null = null;
    let peakUnits = 0;
    const consider = (units: number, trade: PropTrade, at: string | null) => {
      if (units > peakUnits) {
        peakUnits = units;
        peak = { root, contracts: units / slot.ratio, tradeId: trade.id, at };
      }
      if (units > limitUnits) excesses.push({ root, contracts: units / slot.ratio, tradeId: trade.id, at, day: trade.day });
    };
    slot.events.sort((a, b) => a.ms - b.ms || Number(a.entry) - Number(b.entry));
    let open = 0;
    for (const event of slot.events) {
      open += event.delta;
      if (event.entry) consider(open, event.trade, event.trade.entryAt);
    }
    for (const { units, trade } of slot.alone) consider(units, trade, null);
    if (peak) peaks.push(peak);
  }
  peaks.sort((a, b) => a.root.localeCompare(b.root));
  return { peaks, excesses };
}
