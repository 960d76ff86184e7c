import { getFuturesRoot, POINT_VALUES } from '../instruments';
import { Decimal } from '../money';
import type { PropTrade } from './types';

/**
 * Micro contracts and the full-size contract they count against in a firm's position limit (10 MNQ = 1 NQ). The
 * ratio is the ratio of their point values, from the one table of point values, so it cannot drift from pricing.
 */
const MICRO_OF: Readonly<Record<string, string>> = {
  MNQ: 'NQ',
  MES: 'ES',
  MYM: 'YM',
  M2K: 'RTY',
  MGC: 'GC',
  SIL: 'SI',
  MHG: 'HG',
  MCL: 'CL',
  QM: 'CL',
  QG: 'NG',
  MBT: 'BTC',
  MET: 'ETH',
  M6E: '6E',
  M6B: '6B',
  M6A: '6A',
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

/** A moment a family's position went above the limit, and the trade whose fill (or entry) took it there. */
export interface PositionExcess {
  root: string;
  /** The family's position at its highest while this trade kept it over the limit, in full-size contracts (5.2). */
  contracts: number;
  tradeId: string;
  /** The fill's (or entry's) instant as given; null for a trade without times, judged alone. */
  at: string | null;
  /** The trading day of that moment (the trade's own day when it has no times). */
  day: string;
}

/** The largest position of a day, per family, in full-size contracts. */
export interface DayPeak {
  day: string;
  root: string;
  contracts: number;
}

export interface PositionAnalysis {
  excesses: PositionExcess[];
  /** Each day's peak over every family (the largest of them). */
  peakByDay: Map<string, number>;
  /** The largest position ever held, over every family. */
  peak: number;
}

interface PositionEvent {
  ms: number;
  at: string;
  /** The contract whose net position moves (a family nets nothing across contracts: 1 ES long, 1 MES short is 1.1). */
  contract: string;
  root: string;
  /** Signed, in the family's units (its smallest contract). */
  units: number;
  trade: PropTrade;
}

/** Units are integers (the smallest contract of a family) for futures; a fractional quantity keeps nine decimals. */
const tidy = (units: number) => Math.round(units * 1e9) / 1e9;

/**
 * The largest concurrent position per instrument family, in full-size contracts, and every moment it went over
 * `maxContracts`. A trade's fills say when its position moved (buy 3, sell 1, buy 2, sell 4 held at most 4); a trade
 * without fills holds its quantity from its entry to its exit, long or short by its side. Each contract's net position
 * is the sum over the account's trades of that contract; a family's position is the sum of its contracts' net
 * positions, whatever their sign, micros at their ratio. Everything at one instant happens together before the
 * position is read: an exit and a re-entry at the same second are not two positions at once. A trade without times
 * is judged alone, on its day.
 *
 * `dayOf` files a moment under its trading day (the trader's rule).
 */
export function analyzePositions(
  trades: readonly PropTrade[],
  maxContracts: number,
  dayOf: (ms: number, symbol: string | null) => string,
): PositionAnalysis {
  const lcm = (a: number, b: number) => {
    const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
    return (a / gcd(a, b)) * b;
  };
  // Every family's unit is its smallest contract: a full-size contract is `unitsPerFull` units.
  const unitsPerFull = new Map<string, number>();
  for (const trade of trades) {
    const family = positionFamilyOf(trade.symbol);
    if (family) unitsPerFull.set(family.root, lcm(unitsPerFull.get(family.root) ?? 1, family.ratio));
  }

  const events: PositionEvent[] = [];
  const alone: Array<{ trade: PropTrade; root: string; units: number }> = [];
  for (const trade of trades) {
    const family = positionFamilyOf(trade.symbol);
    if (!family) continue;
    const perContract = unitsPerFull.get(family.root)! / family.ratio;
    const contract = trade.symbol!.trim().toUpperCase();
    const fills = trade.fills ?? [];
    if (fills.length > 0) {
      for (const fill of fills) {
        const ms = Date.parse(fill.at);
        if (!Number.isFinite(ms) || !(fill.quantity > 0)) continue;
        events.push({
          ms,
          at: fill.at,
          contract,
          root: family.root,
          units: tidy((fill.side === 'Buy' ? 1 : -1) * fill.quantity * perContract),
          trade,
        });
      }
      continue;
    }
    if (trade.quantity === null || !(trade.quantity > 0)) continue;
    const units = tidy(trade.quantity * perContract);
    const entry = trade.entryAt ? Date.parse(trade.entryAt) : Number.NaN;
    const exit = trade.exitAt ? Date.parse(trade.exitAt) : Number.NaN;
    if (Number.isFinite(entry) && Number.isFinite(exit)) {
      const sign = trade.side === 'Short' ? -1 : 1;
      events.push(
        { ms: entry, at: trade.entryAt!, contract, root: family.root, units: sign * units, trade },
        { ms: Math.max(entry, exit), at: trade.exitAt!, contract, root: family.root, units: -sign * units, trade },
      );
    } else {
      alone.push({ trade, root: family.root, units });
    }
  }
  events.sort((a, b) => a.ms - b.ms);

  const net = new Map<string, number>();
  const familyUnits = new Map<string, number>();
  const excesses: PositionExcess[] = [];
  // The excess each trade is in now, per family: one per trade and spell over the limit, raised to its highest.
  const open = new Map<string, PositionExcess>();
  const peakByDay = new Map<string, number>();
  let peak = 0;
  const notePeak = (day: string, contracts: number) => {
    if (contracts > (peakByDay.get(day) ?? 0)) peakByDay.set(day, contracts);
    if (contracts > peak) peak = contracts;
  };

  for (let i = 0; i < events.length;) {
    const ms = events[i]!.ms;
    const growing: PositionEvent[] = [];
    const touched = new Set<string>();
    for (; i < events.length && events[i]!.ms === ms; i++) {
      const event = events[i]!;
      const before = net.get(event.contract) ?? 0;
      const after = tidy(before + event.units);
      net.set(event.contract, after);
      familyUnits.set(event.root, tidy((familyUnits.get(event.root) ?? 0) - Math.abs(before) + Math.abs(after)));
      if (Math.abs(after) > Math.abs(before)) growing.push(event);
      touched.add(event.root);
    }
    for (const root of touched) {
      const perFull = unitsPerFull.get(root)!;
      const contracts = tidy(familyUnits.get(root)! / perFull);
      const day = dayOf(ms, growing.find((e) => e.root === root)?.trade.symbol ?? null);
      notePeak(day, contracts);
      if (contracts <= maxContracts) {
        for (const key of [...open.keys()]) if (key.startsWith(`${root}|`)) open.delete(key);
        continue;
      }
      for (const event of growing) {
        if (event.root !== root) continue;
        const key = `${root}|${event.trade.id}`;
        const current = open.get(key);
        if (current) {
          if (contracts > current.contracts) current.contracts = contracts;
          continue;
        }
        const excess: PositionExcess = { root, contracts, tradeId: event.trade.id, at: event.at, day: dayOf(event.ms, event.trade.symbol) };
        open.set(key, excess);
        excesses.push(excess);
      }
      // A spell over the limit raised by a trade already in it: its excess follows the family's highest.
      for (const [key, excess] of open) if (key.startsWith(`${root}|`) && contracts > excess.contracts) excess.contracts = contracts;
    }
  }

  for (const { trade, root, units } of alone) {
    const contracts = tidy(units / unitsPerFull.get(root)!);
    notePeak(trade.day, contracts);
    if (contracts > maxContracts) excesses.push({ root, contracts, tradeId: trade.id, at: null, day: trade.day });
  }
  return { excesses, peakByDay, peak };
}
