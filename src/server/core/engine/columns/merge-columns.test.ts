import { describe, expect, it } from 'vitest';
import { appendOrderedColumns, reserveRoom } from './append-columns';
import { findIdRow, SparePool } from './column-room';
import { computeOverview } from '../../../../domain/reports/overview';
import {
  buildOrderedColumns,
  collectBuffers,
  mergeOrderedColumns,
  patchOrderedColumns,
  type OrderedColumns,
  type OrderedTrade,
} from './merge-columns';
import { allTrades, getEntryHours, type ReportTrade } from '../../../../domain/reports/report-trade';
import { computeRiskColumn, getRiskColumn } from '../../../../domain/reports/r-multiples';

const NY = 'America/New_York';
const DAY_SECONDS = 86_400;
/** 2026-03-02 12:00 UTC, as trade_date stores a trading day. */
const MAR_2 = Date.UTC(2026, 2, 2, 12) / 1000;

/** A trade on day `dayIndex` after Mar 2, 2026, entered `minute` minutes after 14:00 UTC (null: a manual trade). */
function trade(
  id: string,
  dayIndex: number,
  cents: number,
  minute: number | null,
  extra: Partial<ReportTrade> & { created?: number } = {},
): OrderedTrade {
  const { created = 1_000_000, ...rest } = extra;
  const day = MAR_2 + dayIndex * DAY_SECONDS;
  const entryUs = minute === null ? null : (day + 2 * 3600 + minute * 60) * 1e6;
  const exitUs = entryUs === null ? null : entryUs + 90e6;
  return {
    day,
    first: entryUs ?? created,
    second: exitUs ?? created,
    created,
    trade: {
      id,
      tradeDate: new Date(day * 1000).toISOString().slice(0, 10),
      accountId: 'apex',
      symbol: 'NQ',
      contract: minute === null ? null : 'NQH6',
      side: minute === null ? null : 'Long',
      setup: 'Breakout',
      session: 'AM',
      tags: [],
      status: cents > 0 ? 'Win' : cents < 0 ? 'Loss' : 'BE',
      pnlCents: cents,
      commissionCents: 124,
      entryMs: entryUs === null ? null : entryUs / 1000,
      exitMs: exitUs === null ? null : exitUs / 1000,
      quantity: 1,
      ...rest,
    },
  };
}

/** Equal in every field a report reads, codes and text order included, and in the order keys. */
function expectSameColumns(actual: OrderedColumns, expected: OrderedColumns) {
  const { hoursByZone: _a, riskByDefaults: _ra, ...a } = actual.columns;
  const { hoursByZone: _e, riskByDefaults: _re, ...e } = expected.columns;
  expect(a).toEqual(e);
  expect(actual.keys).toEqual(expected.keys);
}

/** The copy's index of ids (when it has one) finds every row's id at that row, and none of `gone`. */
function expectIndexed(held: OrderedColumns, gone: Iterable<string> = []) {
  const index = held.room?.ids;
  if (!index) return;
  const { id, size } = held.columns;
  const misplaced = id.filter((x, row) => findIdRow(index, id, size, x) !== row);
  expect(misplaced).toEqual([]);
  expect([...gone].filter((x) => findIdRow(index, id, size, x) >= 0)).toEqual([]);
}

/** A deterministic generator (mulberry32), so a failing case can be run again. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Trades of random P&L, times, instruments, accounts, tags, sizes and plans, drawn from `random` in a fixed order. */
function randomTradeMaker(random: () => number) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  return (id: string, day: number) =>
    trade(id, day, Math.round((random() - 0.5) * 100_000), random() < 0.2 ? null : Math.floor(random() * 8) * 30, {
      created: Math.floor(random() * 4) * 1000,
      symbol: pick(['NQ', 'ES', 'MNQ', 'RTY']),
      accountId: pick(['apex', 'topstep', null]),
      tags: random() < 0.5 ? [] : [pick(['A+', 'FOMO', 'Revenge', `T${Math.floor(random() * 40)}`])],
      quantity: random() < 0.1 ? null : 1 + Math.floor(random() * 3),
      riskCents: random() < 0.2 ? 10_000 : null,
    });
}

describe('mergeOrderedColumns', () => {
  it('an edit that moves the morning NQ win after the afternoon ES loss puts it there, and the streak follows the new order', () => {
    const nqWin = trade('a-nq-win', 0, 15_000, 30);
    const esLoss = trade('b-es-loss', 0, -8_000, 240, { symbol: 'ES', contract: 'ESH6' });
    const mesLoss = trade('c-mes-loss', 0, -2_000, 300, { symbol: 'MES', contract: 'MESH6' });
    const base = buildOrderedColumns([nqWin, esLoss, mesLoss]);
    expect(computeOverview(allTrades(base.columns), { openingBalanceCents: null }).maxConsecutiveLosses).toBe(2);
    // Its entry moved to 18:30 UTC, between the two losses.
    const moved = trade('a-nq-win', 0, 15_000, 270);
    const merged = mergeOrderedColumns(base, new Set(['a-nq-win']), [moved]);
    expect(merged.columns.id).toEqual(['b-es-loss', 'a-nq-win', 'c-mes-loss']);
    expect(computeOverview(allTrades(merged.columns), { openingBalanceCents: null }).maxConsecutiveLosses).toBe(1);
    expectSameColumns(merged, buildOrderedColumns([moved, esLoss, mesLoss]));
  });

  it('a deleted trade takes its texts with it: an instrument, a tag and a day no trade holds any more are gone', () => {
    const nq = trade('nq', 0, 5_000, 10, { tags: ['A+'] });
    const rty = trade('rty', 1, -1_200, 20, { symbol: 'RTY', contract: 'RTYH6', tags: ['FOMO'] });
    const es = trade('es', 2, 700, 30, { symbol: 'ES', contract: 'ESH6', tags: ['A+'] });
    const merged = mergeOrderedColumns(buildOrderedColumns([nq, rty, es]), new Set(['rty']), []);
    expect(merged.columns.symbol.values).toEqual([null, 'NQ', 'ES']);
    expect(merged.columns.tagValues).toEqual(['A+']);
    expect(merged.columns.days).toEqual(['2026-03-02', '2026-03-04']);
    expectSameColumns(merged, buildOrderedColumns([nq, es]));
  });

  it('manual trades without times keep the order they were written in; a tie on every time falls to the id', () => {
    const first = trade('m-2', 3, 100, null, { created: 5_000 });
    const second = trade('m-1', 3, 200, null, { created: 6_000 });
    const base = buildOrderedColumns([second, first]);
    expect(base.columns.id).toEqual(['m-2', 'm-1']);
    // Written in the same transaction as m-2 (one creation time): the id decides, m-0 before m-2.
    const sameTime = trade('m-0', 3, 300, null, { created: 5_000 });
    const merged = mergeOrderedColumns(base, new Set(['m-0']), [sameTime]);
    expect(merged.columns.id).toEqual(['m-0', 'm-2', 'm-1']);
    expectSameColumns(merged, buildOrderedColumns([first, second, sameTime]));
  });

  it('keeps the entry hours computed for a zone, and computes them for the new trades', () => {
    const base = buildOrderedColumns([trade('early', 0, 100, 0), trade('late', 0, 100, 300)]);
    getEntryHours(base.columns, NY);
    const merged = mergeOrderedColumns(base, new Set(['added', 'late']), [trade('added', 1, 100, 120)]);
    // 14:00 UTC is 09:00 in New York in early March (EST); 16:00 UTC is 11:00.
    expect(Array.from(merged.columns.hoursByZone.get(NY)!)).toEqual([9, 11]);
  });

  it('carries the planned risks priced under the defaults over, and prices the changed trades (NQ at 20 points, $20 a point)', () => {
    const defaults = [{ id: 'nq-20', accountId: null, root: 'NQ', stopPoints: '20', amountCents: null }];
    const planned = trade('planned', 0, 100, 10, { riskCents: 15_000 });
    const base = buildOrderedColumns([
      planned,
      trade('two-lots', 0, 100, 20, { quantity: 2 }),
      trade('es', 0, 100, 30, { symbol: 'ES', contract: 'ESH6' }),
    ]);
    expect(Array.from(getRiskColumn(base.columns, defaults))).toEqual([15_000, 80_000, Number.NaN]);
    const merged = mergeOrderedColumns(base, new Set(['two-lots', 'one-lot']), [trade('one-lot', 0, 100, 25)]);
    const carried = merged.columns.riskByDefaults.get(JSON.stringify(defaults))!.risk;
    expect(Array.from(carried)).toEqual([15_000, 40_000, Number.NaN]);
    expect(carried).toEqual(computeRiskColumn(merged.columns, defaults));
    expect(getRiskColumn(merged.columns, defaults)).toBe(carried);
  });

  it('refuses a trade that is not among the changed ones (it would be in the columns twice)', () => {
    const base = buildOrderedColumns([trade('kept', 0, 100, 0)]);
    expect(() => mergeOrderedColumns(base, new Set(), [trade('kept', 0, 100, 0)])).toThrow(/not among the changed/);
  });

  it.each([
    ['built', (held: OrderedColumns) => held],
    ['with room and an index of ids, as the server holds them', reserveRoom],
  ])('equals a build of every trade after any mix of inserts, edits and deletes (150 random rounds, %s)', (_, prepare) => {
    const random = prng(26);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const make = (id: string) =>
      trade(id, Math.floor(random() * 6), Math.round((random() - 0.5) * 100_000), random() < 0.2 ? null : Math.floor(random() * 8) * 30, {
        created: Math.floor(random() * 4) * 1000,
        symbol: pick(['NQ', 'ES', 'MNQ']),
        accountId: pick(['apex', 'topstep', null]),
        tags: random() < 0.5 ? [] : [pick(['A+', 'FOMO', 'Revenge'])],
        quantity: random() < 0.1 ? null : 1 + Math.floor(random() * 3),
        riskCents: random() < 0.2 ? 10_000 : null,
      });
    const defaults = [{ id: 'mnq', accountId: 'apex', root: 'MNQ', stopPoints: '15', amountCents: null }];
    let serial = 0;
    let now = new Map<string, OrderedTrade>();
    for (let i = 0; i < 30; i++) {
      const t = make(`t-${String(serial++).padStart(4, '0')}`);
      now.set(t.trade.id, t);
    }
    let held = prepare(buildOrderedColumns([...now.values()]));
    for (let round = 0; round < 150; round++) {
      const next = new Map(now);
      const changed = new Set<string>();
      const ids = [...now.keys()];
      for (let k = Math.floor(random() * 4); k > 0 && ids.length > 0; k--) {
        const id = pick(ids);
        changed.add(id);
        if (random() < 0.5) next.delete(id);
        else next.set(id, make(id));
      }
      for (let k = Math.floor(random() * 4); k > 0; k--) {
        const t = make(`t-${String(serial++).padStart(4, '0')}`);
        changed.add(t.trade.id);
        next.set(t.trade.id, t);
      }
      const current = [...changed].map((id) => next.get(id)).filter((t): t is OrderedTrade => t !== undefined);
      getRiskColumn(held.columns, defaults);
      const before = buildOrderedColumns([...now.values()]);
      const old = held;
      held = mergeOrderedColumns(held, changed, current);
      now = next;
      expectSameColumns(held, buildOrderedColumns([...now.values()]));
      expectSameColumns(old, before);
      expect(getRiskColumn(held.columns, defaults)).toEqual(computeRiskColumn(held.columns, defaults));
      expectIndexed(
        held,
        [...changed].filter((id) => !now.has(id)),
      );
    }
  });

  it('leaves room past its rows and moves the index of ids: the next import of later trades is written in place, not copied', () => {
    const nq = trade('nq', 0, 5_000, 10, { tags: ['A+'] });
    const es = trade('es', 1, -1_200, 20, { symbol: 'ES', contract: 'ESH6' });
    const rty = trade('rty', 2, 700, 30, { symbol: 'RTY', contract: 'RTYH6', tags: ['FOMO'] });
    const held = reserveRoom(buildOrderedColumns([nq, es, rty]));
    getEntryHours(held.columns, NY);
    const defaults = [{ id: 'nq-20', accountId: null, root: 'NQ', stopPoints: '20', amountCents: null }];
    getRiskColumn(held.columns, defaults);
    // An import dated among the older trades, and ES deleted: merged.
    const between = trade('between', 1, 300, 40, { tags: ['Revenge'] });
    const merged = mergeOrderedColumns(held, new Set(['between', 'es']), [between]);
    expectSameColumns(merged, buildOrderedColumns([nq, between, rty]));
    expectIndexed(merged, ['es']);
    expect(merged.columns.pnl.buffer.byteLength).toBeGreaterThan(merged.columns.size * 8);
    // Then the latest trades: appended in the merge's arrays.
    const later = trade('later', 3, -400, 0, { tags: ['A+', 'New'] });
    const appended = appendOrderedColumns(merged, new Set(['later']), [later])!;
    expect(appended).not.toBeNull();
    for (const [name, of] of [
      ['pnl', (c: OrderedColumns) => c.columns.pnl],
      ['result', (c: OrderedColumns) => c.columns.result],
      ['day', (c: OrderedColumns) => c.columns.day],
      ['symbol codes', (c: OrderedColumns) => c.columns.symbol.codes],
      ['tag starts', (c: OrderedColumns) => c.columns.tagStart],
      ['tag codes', (c: OrderedColumns) => c.columns.tagCodes],
      ['day keys', (c: OrderedColumns) => c.keys.day],
      ['entry hours', (c: OrderedColumns) => c.columns.hoursByZone.get(NY)!],
      ['planned risks', (c: OrderedColumns) => c.columns.riskByDefaults.get(JSON.stringify(defaults))!.risk],
    ] as const) {
      expect(of(appended).buffer, name).toBe(of(merged).buffer);
    }
    expect(appended.room!.ids).toBe(merged.room!.ids);
    expectSameColumns(appended, buildOrderedColumns([nq, between, rty, later]));
    expectIndexed(appended, ['es']);
    expect(getEntryHours(appended.columns, NY)).toEqual(getEntryHours(buildOrderedColumns([nq, between, rty, later]).columns, NY));
    expect(getRiskColumn(appended.columns, defaults)).toEqual(computeRiskColumn(appended.columns, defaults));
    // The copies before read as they were.
    expectSameColumns(merged, buildOrderedColumns([nq, between, rty]));
    expectSameColumns(held, buildOrderedColumns([nq, es, rty]));
  });

  it('numbers texts where they first appear after the merge: a trade put first with a new instrument and tag renumbers them', () => {
    const nq = trade('nq', 1, 5_000, 10, { tags: ['A+'] });
    const es = trade('es', 1, -1_200, 20, { symbol: 'ES', contract: 'ESH6', tags: ['FOMO', 'A+'] });
    const held = reserveRoom(buildOrderedColumns([nq, es]));
    const first = trade('first', 0, 100, 0, { symbol: 'RTY', contract: 'RTYH6', tags: ['FOMO', 'Late'] });
    const merged = mergeOrderedColumns(held, new Set(['first', 'nq']), [first]);
    expect(merged.columns.symbol.values).toEqual([null, 'RTY', 'ES']);
    expect(merged.columns.tagValues).toEqual(['FOMO', 'Late', 'A+']);
    expectSameColumns(merged, buildOrderedColumns([first, es]));
    expectIndexed(merged, ['nq']);
  });
});

describe('patchOrderedColumns', () => {
  const defaults = [{ id: 'nq-20', accountId: null, root: 'NQ', stopPoints: '20', amountCents: null }];

  it("an edit of the morning NQ win's P&L copies the P&L and result columns only, and leaves the copy reports still read as it was", () => {
    const nqWin = trade('a-nq-win', 0, 15_000, 30, { tags: ['A+'] });
    const esLoss = trade('b-es-loss', 0, -8_000, 240, { symbol: 'ES', contract: 'ESH6' });
    const base = buildOrderedColumns([nqWin, esLoss]);
    getEntryHours(base.columns, NY);
    const risk = getRiskColumn(base.columns, defaults);
    const nowLoss = trade('a-nq-win', 0, -4_000, 30, { tags: ['A+'] });
    const patched = patchOrderedColumns(base, new Set(['a-nq-win']), [nowLoss])!;
    expect(patched).not.toBeNull();
    expectSameColumns(patched, buildOrderedColumns([nowLoss, esLoss]));
    expect(Array.from(patched.columns.pnl)).toEqual([-4_000, -8_000]);
    expect(Array.from(base.columns.pnl)).toEqual([15_000, -8_000]);
    expect(Array.from(base.columns.result)).toEqual([1, 2]);
    // Shared, not copied: what the edit did not touch.
    expect(patched.columns.symbol).toBe(base.columns.symbol);
    expect(patched.columns.entry).toBe(base.columns.entry);
    expect(patched.columns.tagCodes).toBe(base.columns.tagCodes);
    expect(patched.keys).toBe(base.keys);
    expect(patched.columns.hoursByZone.get(NY)).toBe(base.columns.hoursByZone.get(NY));
    expect(getRiskColumn(patched.columns, defaults)).toBe(risk);
  });

  it('a later entry within the same gap, a new size and a known tag: patched, with the hours and risks of that row again', () => {
    const early = trade('early', 0, 100, 0, { tags: ['A+'] });
    const middle = trade('middle', 0, 100, 60);
    const late = trade('late', 0, 100, 300, { tags: ['FOMO'] });
    const base = buildOrderedColumns([early, middle, late]);
    getEntryHours(base.columns, NY);
    getRiskColumn(base.columns, defaults);
    // 14:00 + 120 min UTC = 11:00 in New York; two lots at 20 points of $20.
    const edited = trade('middle', 0, 100, 120, { quantity: 2, tags: ['A+'] });
    const patched = patchOrderedColumns(base, new Set(['middle']), [edited])!;
    expect(patched).not.toBeNull();
    expectSameColumns(patched, buildOrderedColumns([early, edited, late]));
    expect(Array.from(patched.columns.hoursByZone.get(NY)!)).toEqual([9, 11, 14]);
    expect(Array.from(getRiskColumn(patched.columns, defaults))).toEqual([40_000, 80_000, 40_000]);
    expect(Array.from(getEntryHours(base.columns, NY))).toEqual([9, 10, 14]);
  });

  it('leaves to the merge what would move a trade or renumber a text: another day, past a neighbour, a new instrument, a text first seen at the edited row, a deletion', () => {
    const nq = trade('nq', 0, 100, 0);
    const es = trade('es', 0, 100, 60, { symbol: 'ES', contract: 'ESH6' });
    const nq2 = trade('nq-2', 0, 100, 120);
    const base = buildOrderedColumns([nq, es, nq2]);
    const refused = [
      ['another day', new Set(['es']), [trade('es', 1, 100, 60, { symbol: 'ES', contract: 'ESH6' })]],
      ['past a neighbour', new Set(['es']), [trade('es', 0, 100, 150, { symbol: 'ES', contract: 'ESH6' })]],
      ['an instrument no trade has', new Set(['es']), [trade('es', 0, 100, 60, { symbol: 'RTY', contract: 'RTYH6' })]],
      // NQ first appears at row 0: made ES, a build would number ES 1 and NQ 2.
      ['the first NQ made ES', new Set(['nq']), [trade('nq', 0, 100, 0, { symbol: 'ES', contract: 'ESH6' })]],
      ['a deletion', new Set(['es']), []],
      ['an insertion', new Set(['new']), [trade('new', 0, 100, 90)]],
    ] as const;
    for (const [what, changed, current] of refused) expect(patchOrderedColumns(base, changed, current), what).toBeNull();
    // A bulk edit of 64 trades is patched; of 65, merged (an import's scan for new trades is not worth a patch's try).
    const many = Array.from({ length: 65 }, (_, k) => trade(`m-${String(k).padStart(2, '0')}`, 1, 100, k));
    const wide = buildOrderedColumns(many);
    const doubled = many.map((t) => ({ ...t, trade: { ...t.trade, pnlCents: 200 } }));
    expect(patchOrderedColumns(wide, new Set(doubled.slice(0, 64).map((t) => t.trade.id)), doubled.slice(0, 64))).not.toBeNull();
    expect(patchOrderedColumns(wide, new Set(doubled.map((t) => t.trade.id)), doubled)).toBeNull();
    // The same edit after the first: NQ and ES both appear before row 2.
    const nq2AsEs = trade('nq-2', 0, 100, 120, { symbol: 'ES', contract: 'ESH6' });
    expectSameColumns(patchOrderedColumns(base, new Set(['nq-2']), [nq2AsEs])!, buildOrderedColumns([nq, es, nq2AsEs]));
  });

  it('a trade deleted and written again under the same id between two reports is one change: patched where it kept its place, merged where it did not', () => {
    const nq = trade('nq', 0, 100, 0);
    const again = trade('again', 0, -300, 60);
    const es = trade('es', 0, 100, 120, { symbol: 'ES', contract: 'ESH6' });
    const base = buildOrderedColumns([nq, again, es]);
    // The log names the id once; the trade as it is now is the one written last.
    const rewritten = trade('again', 0, 450, 60);
    expectSameColumns(patchOrderedColumns(base, new Set(['again']), [rewritten])!, buildOrderedColumns([nq, rewritten, es]));
    const later = trade('again', 0, 450, 180);
    expect(patchOrderedColumns(base, new Set(['again']), [later])).toBeNull();
    expectSameColumns(mergeOrderedColumns(base, new Set(['again']), [later]), buildOrderedColumns([nq, es, later]));
  });

  it('finds an edited trade by the index of ids: a few ids read, not every one, whether its times changed or not', () => {
    const many = Array.from({ length: 5_000 }, (_, k) => trade(`t-${String(k).padStart(5, '0')}`, Math.floor(k / 50), 100 + k, (k % 50) * 4));
    const held = reserveRoom(buildOrderedColumns([...many]));
    let reads = 0;
    const id = new Proxy(held.columns.id as string[], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const counted: OrderedColumns = { ...held, columns: { ...held.columns, id } };
    const old = many[2_345]!;
    // A P&L changed, and the entry a minute later within its gap: the keys say nothing of where it was.
    const edited = { ...trade(old.trade.id, 46, -900, 0), first: old.first + 60e6, second: old.second + 60e6 };
    edited.trade = { ...edited.trade, entryMs: old.trade.entryMs! + 60_000, exitMs: old.trade.exitMs! + 60_000 };
    const patched = patchOrderedColumns(counted, new Set([old.trade.id]), [edited])!;
    expect(patched).not.toBeNull();
    expect(reads).toBeLessThan(20);
    expect(patched.columns.pnl[2_345]).toBe(-900);
    const now = [...many];
    now[2_345] = edited;
    expectSameColumns(patched, buildOrderedColumns(now));
    expectIndexed(patched);
    // A trade the index does not hold is new: not an edit.
    expect(patchOrderedColumns(held, new Set(['t-new']), [trade('t-new', 3, 100, 1)])).toBeNull();
  });

  it.each([
    ['built', (held: OrderedColumns) => held],
    ['with room and an index of ids, as the server holds them', reserveRoom],
  ])('equals a build of every trade after any edits it takes, and the copy before stays as it was (300 random rounds, %s)', (_, prepareHeld) => {
    const random = prng(27);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const make = (id: string, day = Math.floor(random() * 4), minute: number | null = random() < 0.2 ? null : Math.floor(random() * 8) * 30) =>
      trade(id, day, Math.round((random() - 0.5) * 100_000), minute, {
        created: 1000,
        symbol: pick(['NQ', 'ES', 'MNQ']),
        accountId: pick(['apex', 'topstep', null]),
        tags: random() < 0.4 ? [] : random() < 0.5 ? [pick(['A+', 'FOMO', 'Revenge'])] : ['A+', 'Revenge'],
        quantity: random() < 0.1 ? null : 1 + Math.floor(random() * 3),
        riskCents: random() < 0.2 ? 10_000 : null,
      });
    const now = new Map<string, OrderedTrade>();
    for (let i = 0; i < 60; i++) {
      const t = make(`t-${String(i).padStart(3, '0')}`);
      now.set(t.trade.id, t);
    }
    let held = prepareHeld(buildOrderedColumns([...now.values()]));
    let patchedRounds = 0;
    for (let round = 0; round < 300; round++) {
      getEntryHours(held.columns, NY);
      getRiskColumn(held.columns, defaults);
      const before = buildOrderedColumns([...now.values()]);
      const changed = new Set<string>();
      const ids = [...now.keys()];
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const id = pick(ids);
        const old = now.get(id)!;
        // Mostly the same day and time (a P&L, texts, tags or size changed), sometimes another time or day.
        const keep = random() < 0.7;
        changed.add(id);
        now.set(id, keep ? { ...make(id, (old.day - MAR_2) / DAY_SECONDS, null), first: old.first, second: old.second, day: old.day } : make(id));
        if (keep) {
          const t = now.get(id)!;
          now.set(id, {
            ...t,
            trade: { ...t.trade, entryMs: old.trade.entryMs, exitMs: old.trade.exitMs, contract: old.trade.contract, side: old.trade.side },
          });
        }
      }
      const current = [...changed].map((id) => now.get(id)!);
      const patched = patchOrderedColumns(held, changed, current);
      if (patched) patchedRounds++;
      const next = patched ?? mergeOrderedColumns(held, changed, current);
      expectSameColumns(held, before);
      held = next;
      expectSameColumns(held, buildOrderedColumns([...now.values()]));
      expect(getRiskColumn(held.columns, defaults)).toEqual(computeRiskColumn(held.columns, defaults));
      expect(getEntryHours(held.columns, NY)).toEqual(getEntryHours(buildOrderedColumns([...now.values()]).columns, NY));
      expectIndexed(held);
    }
    // Most rounds are edits in place: the test checks the patch, not only the merge behind it.
    expect(patchedRounds).toBeGreaterThan(100);
  });
});

describe('appendOrderedColumns', () => {
  const defaults = [{ id: 'nq-20', accountId: null, root: 'NQ', stopPoints: '20', amountCents: null }];
  const prepare = (held: OrderedColumns) => {
    getEntryHours(held.columns, NY);
    getRiskColumn(held.columns, defaults);
    return held;
  };
  const expectDerived = (held: OrderedColumns) => {
    expect(held.columns.hoursByZone.get(NY)).toEqual(getEntryHours(buildTradeColumnsOf(held), NY));
    expect(held.columns.riskByDefaults.get(JSON.stringify(defaults))!.risk).toEqual(computeRiskColumn(held.columns, defaults));
  };
  /** Fresh columns of the same trades, without the hours and risks kept with them. */
  const buildTradeColumnsOf = (held: OrderedColumns) => ({ ...held.columns, hoursByZone: new Map(), riskByDefaults: new Map() });

  it('one trade after the last one, on the same day: its row is written after the others, the copy before reads as it was', () => {
    const nq = trade('nq', 0, 15_000, 30, { tags: ['A+'] });
    const es = trade('es', 0, -8_000, 240, { symbol: 'ES', contract: 'ESH6' });
    const base = prepare(buildOrderedColumns([nq, es]));
    const late = trade('late', 0, 2_500, 300, { tags: ['A+'] });
    const appended = appendOrderedColumns(base, new Set(['late']), [late])!;
    expect(appended).not.toBeNull();
    expectSameColumns(appended, buildOrderedColumns([nq, es, late]));
    expect(appended.columns.days).toEqual(['2026-03-02']);
    expect(Array.from(appended.columns.dayStart)).toEqual([0, 3]);
    // 14:00 + 300 min UTC is 14:00 in New York; one NQ lot at 20 points of $20 priced by the default.
    expect(Array.from(appended.columns.hoursByZone.get(NY)!)).toEqual([9, 13, 14]);
    expect(Array.from(appended.columns.riskByDefaults.get(JSON.stringify(defaults))!.risk)).toEqual([40_000, Number.NaN, 40_000]);
    expectDerived(appended);
    expectSameColumns(base, buildOrderedColumns([nq, es]));
    expect(base.columns.size).toBe(2);
    expect(Array.from(base.columns.dayStart)).toEqual([0, 2]);
    expect(computeOverview(allTrades(base.columns), { openingBalanceCents: null }).netCents).toBe(7_000);
    expect(computeOverview(allTrades(appended.columns), { openingBalanceCents: null }).netCents).toBe(9_500);

    // The next append writes in the same arrays (the first made room), and the copies before still read as they were.
    const later = trade('later', 1, -1_000, 10, { symbol: 'RTY', contract: 'RTYH6', tags: ['Late'] });
    const again = appendOrderedColumns(appended, new Set(['later']), [later])!;
    expect(again.columns.pnl.buffer).toBe(appended.columns.pnl.buffer);
    expect(again.keys.day.buffer).toBe(appended.keys.day.buffer);
    expectSameColumns(again, buildOrderedColumns([nq, es, late, later]));
    expect(again.columns.symbol.values).toEqual([null, 'NQ', 'ES', 'RTY']);
    expect(again.columns.tagValues).toEqual(['A+', 'Late']);
    expectDerived(again);
    expectSameColumns(appended, buildOrderedColumns([nq, es, late]));
    expect(appended.columns.symbol.values).toEqual([null, 'NQ', 'ES']);
    expectSameColumns(base, buildOrderedColumns([nq, es]));
  });

  it('an import of 1,000 later trades over 20 new days, with an instrument and tags no trade had: the columns of a build of every trade', () => {
    const random = prng(31);
    const old = Array.from({ length: 300 }, (_, i) =>
      trade(`o-${String(i).padStart(4, '0')}`, Math.floor(i / 30), Math.round((random() - 0.5) * 50_000), i % 30, {
        tags: i % 3 === 0 ? ['A+'] : [],
      }),
    );
    const base = prepare(buildOrderedColumns([...old]));
    const imported = Array.from({ length: 1000 }, (_, i) =>
      trade(`n-${String(i).padStart(4, '0')}`, 10 + Math.floor(i / 50), Math.round((random() - 0.5) * 50_000), random() < 0.1 ? null : (i % 50) * 5, {
        created: 2_000_000,
        symbol: i % 7 === 0 ? 'MES' : 'NQ',
        tags: i % 4 === 0 ? ['Revenge', 'A+'] : [],
        quantity: 1 + (i % 3),
      }),
    );
    // Given in any order, as the log reads them.
    const shuffled = [...imported].sort(() => random() - 0.5);
    const appended = appendOrderedColumns(base, new Set(imported.map((t) => t.trade.id)), shuffled)!;
    expect(appended).not.toBeNull();
    expectSameColumns(appended, buildOrderedColumns([...old, ...imported]));
    expect(appended.columns.days).toHaveLength(30);
    expectDerived(appended);
    expectSameColumns(base, buildOrderedColumns([...old]));
  });

  it('leaves to the patch and the merge what is not an append: an earlier trade, an edit moved to the end, a deletion; mixed with an edit, the merge is right', () => {
    const nq = trade('nq', 0, 100, 0);
    const es = trade('es', 1, 100, 60, { symbol: 'ES', contract: 'ESH6' });
    const base = prepare(buildOrderedColumns([nq, es]));
    const late = trade('late', 2, 300, 30);
    const refused = [
      ['a trade before the last one', new Set(['early']), [trade('early', 1, 100, 30)]],
      ['the old first trade moved after the last', new Set(['nq']), [trade('nq', 3, 100, 0)]],
      ['the last trade edited in place', new Set(['es']), [trade('es', 1, -100, 60, { symbol: 'ES', contract: 'ESH6' })]],
      ['a deletion beside a later trade', new Set(['nq', 'late']), [late]],
      ['a later trade beside an edit', new Set(['nq', 'late']), [trade('nq', 0, -700, 0), late]],
      ['nothing', new Set<string>(), []],
    ] as const;
    for (const [what, changed, current] of refused) expect(appendOrderedColumns(base, changed, current), what).toBeNull();
    // What the cache does next with the last one: an insert beside an edit is merged, and the merge is right.
    const edited = trade('nq', 0, -700, 0);
    const merged = mergeOrderedColumns(base, new Set(['nq', 'late']), [edited, late]);
    expectSameColumns(merged, buildOrderedColumns([edited, es, late]));
    expectDerived(merged);
    // A copy the merge made has no room yet: its next append copies once, and is right.
    const after = appendOrderedColumns(merged, new Set(['later']), [trade('later', 4, 10, 0)])!;
    expectSameColumns(after, buildOrderedColumns([edited, es, late, trade('later', 4, 10, 0)]));
    expectSameColumns(merged, buildOrderedColumns([edited, es, late]));
  });

  it('room made after a full read: the same columns, and the first append writes in place', () => {
    const trades = [trade('a', 0, 100, 0, { tags: ['A+'] }), trade('b', 1, -200, 10, { symbol: 'ES', contract: 'ESH6' })];
    const roomy = reserveRoom(prepare(buildOrderedColumns([...trades])));
    expectSameColumns(roomy, buildOrderedColumns([...trades]));
    expectDerived(roomy);
    const c = trade('c', 1, 300, 20, { tags: ['A+', 'Late'] });
    const appended = appendOrderedColumns(roomy, new Set(['c']), [c])!;
    expect(appended.columns.pnl.buffer).toBe(roomy.columns.pnl.buffer);
    expect(appended.columns.hoursByZone.get(NY)!.buffer).toBe(roomy.columns.hoursByZone.get(NY)!.buffer);
    expectSameColumns(appended, buildOrderedColumns([...trades, c]));
    expectDerived(appended);
    expectSameColumns(roomy, buildOrderedColumns([...trades]));
  });

  it("two appends to the same copy (two loads at once) do not write each other's rows: the second copies", () => {
    const base = buildOrderedColumns([trade('a', 0, 100, 0), trade('b', 0, 200, 10)]);
    const grown = appendOrderedColumns(base, new Set(['c']), [trade('c', 0, 300, 20)])!;
    const first = appendOrderedColumns(grown, new Set(['d']), [trade('d', 1, 400, 0)])!;
    const second = appendOrderedColumns(grown, new Set(['e']), [trade('e', 2, -500, 0, { symbol: 'ES', contract: 'ESH6' })])!;
    expect(first.columns.pnl.buffer).toBe(grown.columns.pnl.buffer);
    expect(second.columns.pnl.buffer).not.toBe(grown.columns.pnl.buffer);
    const abc = [trade('a', 0, 100, 0), trade('b', 0, 200, 10), trade('c', 0, 300, 20)];
    expectSameColumns(first, buildOrderedColumns([...abc, trade('d', 1, 400, 0)]));
    expectSameColumns(second, buildOrderedColumns([...abc, trade('e', 2, -500, 0, { symbol: 'ES', contract: 'ESH6' })]));
    expectSameColumns(grown, buildOrderedColumns(abc));
    // Each line goes on from its own copy: d is not in the second's, and e can still be added after d in the first's.
    const third = appendOrderedColumns(second, new Set(['d']), [trade('d', 3, 400, 0)])!;
    expect(third).not.toBeNull();
    expect(appendOrderedColumns(first, new Set(['e']), [trade('e', 2, -500, 0, { symbol: 'ES', contract: 'ESH6' })])).not.toBeNull();
    expectSameColumns(first, buildOrderedColumns([...abc, trade('d', 1, 400, 0)]));
  });

  it('equals a build of every trade after rounds of imports of later trades among edits, inserts and deletes, as the cache tries them (200 random rounds)', () => {
    const random = prng(28);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    let lastDay = 3;
    const make = randomTradeMaker(random);
    let serial = 0;
    const nextId = () => `t-${String(serial++).padStart(4, '0')}`;
    const now = new Map<string, OrderedTrade>();
    for (let i = 0; i < 40; i++) {
      const t = make(nextId(), Math.floor(random() * 4));
      now.set(t.trade.id, t);
    }
    // Room made after the full read, as the server does.
    let held = reserveRoom(buildOrderedColumns([...now.values()]));
    const ways = { appended: 0, patched: 0, merged: 0, appendedInPlaceAfterMerge: 0 };
    let lastWay = '';
    for (let round = 0; round < 200; round++) {
      prepare(held);
      const before = buildOrderedColumns([...now.values()]);
      const changed = new Set<string>();
      const ids = [...now.keys()];
      const kind = random();
      if (kind < 0.55) {
        // An import of later trades: on the last day (maybe before its last trade) or after it.
        for (let k = 1 + Math.floor(random() * (random() < 0.1 ? 30 : 3)); k > 0; k--) {
          const t = make(nextId(), lastDay + Math.floor(random() * 3));
          changed.add(t.trade.id);
          now.set(t.trade.id, t);
        }
      } else {
        for (let k = Math.floor(random() * 3); k > 0; k--) {
          const id = pick(ids);
          changed.add(id);
          if (random() < 0.3) now.delete(id);
          else now.set(id, make(id, random() < 0.2 ? lastDay + 1 : (now.get(id)!.day - MAR_2) / DAY_SECONDS));
        }
        if (random() < 0.5) {
          const t = make(nextId(), lastDay + 1);
          changed.add(t.trade.id);
          now.set(t.trade.id, t);
        }
      }
      lastDay = Math.max(...[...now.values()].map((t) => (t.day - MAR_2) / DAY_SECONDS));
      const current = [...changed].map((id) => now.get(id)).filter((t): t is OrderedTrade => t !== undefined);
      const appended = appendOrderedColumns(held, changed, current);
      const patched = appended ? null : patchOrderedColumns(held, changed, current);
      const way = appended ? 'appended' : patched ? 'patched' : 'merged';
      ways[way]++;
      if (appended && lastWay === 'merged' && appended.columns.pnl.buffer === held.columns.pnl.buffer) ways.appendedInPlaceAfterMerge++;
      lastWay = way;
      const next = appended ?? patched ?? mergeOrderedColumns(held, changed, current);
      expectSameColumns(held, before);
      held = next;
      const built = buildOrderedColumns([...now.values()]);
      expectSameColumns(held, built);
      expect(getRiskColumn(held.columns, defaults)).toEqual(computeRiskColumn(held.columns, defaults));
      expect(getEntryHours(held.columns, NY)).toEqual(getEntryHours(built.columns, NY));
      expectIndexed(
        held,
        [...changed].filter((id) => !now.has(id)),
      );
    }
    // Every way is taken, the append most: the test checks the append, not only the merge behind it.
    expect(ways.appended).toBeGreaterThan(70);
    expect(ways.merged).toBeGreaterThan(20);
    expect(ways.patched).toBeGreaterThan(0);
    // A merge leaves room: the import after it is written in the merge's arrays.
    expect(ways.appendedInPlaceAfterMerge).toBeGreaterThan(5);
  }, 60_000);

  it("merges into the buffers of copies no one reads any more: a build's columns every round, a copy still read unchanged until let go (200 random rounds)", () => {
    const random = prng(31);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const make = randomTradeMaker(random);
    let serial = 0;
    const nextId = () => `s-${String(serial++).padStart(4, '0')}`;
    const now = new Map<string, OrderedTrade>();
    for (let i = 0; i < 60; i++) {
      const t = make(nextId(), Math.floor(random() * 6));
      now.set(t.trade.id, t);
    }
    let held = prepare(reserveRoom(buildOrderedColumns([...now.values()])));
    // Reports still reading a former copy, with what it held when they took it (a deep copy).
    let readers: Array<{ copy: OrderedColumns; saw: OrderedColumns; until: number }> = [];
    const pool = new SparePool();
    let recycled = 0;
    /**
     * As the cache does when a copy is neither current nor read: its buffers no live copy uses become spare, here
     * scribbled over first, so that a merge that read a spare's old values, or a reader that saw its arrays recycled,
     * would show.
     */
    const retire = (dead: OrderedColumns) => {
      const live = collectBuffers(held);
      for (const r of readers) collectBuffers(r.copy, live);
      for (const buffer of collectBuffers(dead)) {
        if (live.has(buffer)) continue;
        if (Array.isArray(buffer)) {
          (buffer as string[]).fill('scribbled');
          pool.addIds(buffer as string[]);
        } else {
          new Uint8Array(buffer as ArrayBuffer).fill(0xa5);
          pool.add(buffer as ArrayBuffer);
        }
      }
    };
    const ways = { appended: 0, patched: 0, merged: 0 };
    for (let round = 0; round < 200; round++) {
      const changed = new Set<string>();
      const ids = [...now.keys()];
      const lastDay = Math.max(...[...now.values()].map((t) => (t.day - MAR_2) / DAY_SECONDS));
      if (random() < 0.3) {
        for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
          const t = make(nextId(), lastDay + Math.floor(random() * 2));
          changed.add(t.trade.id);
          now.set(t.trade.id, t);
        }
      } else {
        // Edits, moves, deletes and trades dated among the older ones: merged (or patched) most rounds.
        for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
          const id = pick(ids);
          changed.add(id);
          if (random() < 0.3) now.delete(id);
          else now.set(id, make(id, Math.floor(random() * (lastDay + 1))));
        }
        if (random() < 0.5) {
          const t = make(nextId(), Math.floor(random() * lastDay));
          changed.add(t.trade.id);
          now.set(t.trade.id, t);
        }
      }
      const current = [...changed].map((id) => now.get(id)).filter((t): t is OrderedTrade => t !== undefined);
      const appended = appendOrderedColumns(held, changed, current);
      const patched = appended ? null : patchOrderedColumns(held, changed, current);
      const before = pool.bytes;
      const next = prepare(appended ?? patched ?? mergeOrderedColumns(held, changed, current, pool));
      ways[appended ? 'appended' : patched ? 'patched' : 'merged']++;
      if (!appended && !patched && pool.bytes < before) recycled++;
      // What the new copy writes that its base did not share is no buffer a report still reads.
      const read = new Set<ArrayBufferLike | readonly string[]>();
      for (const r of readers) collectBuffers(r.copy, read);
      const base = collectBuffers(held);
      expect(
        [...collectBuffers(next)].filter((buffer) => !base.has(buffer) && read.has(buffer)),
        `round ${round}`,
      ).toEqual([]);
      const old = held;
      held = next;
      // The copy replaced is read on by a report a few rounds in some rounds; else it is spare at once.
      if (random() < 0.4) readers.push({ copy: old, saw: structuredClone(old), until: round + 1 + Math.floor(random() * 4) });
      else retire(old);
      const done = readers.filter((r) => r.until <= round);
      readers = readers.filter((r) => r.until > round);
      for (const r of done) {
        // Its columns, keys, hours and risks as they were (the lineage's room is shared: appends move it on).
        expect(r.copy.columns, `round ${round}: a copy read while merges went on`).toEqual(r.saw.columns);
        expect(r.copy.keys, `round ${round}`).toEqual(r.saw.keys);
        expectIndexed(r.copy);
        retire(r.copy);
      }
      for (const r of readers) expectSameColumns(r.copy, r.saw);
      const built = buildOrderedColumns([...now.values()]);
      expectSameColumns(held, built);
      expectDerived(held);
      expectIndexed(
        held,
        [...changed].filter((id) => !now.has(id)),
      );
    }
    expect(ways.merged).toBeGreaterThan(60);
    expect(recycled).toBeGreaterThan(40);
  }, 60_000);
});
