import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReportFilter,
  HOLD_BUCKET_IDS,
  NEWS_MODES,
  NEWS_WINDOWS,
  resolveReportRange,
  TAG_MODES,
  type ReportFilter,
} from '../../src/domain/reports';
import { storeNewsEvents } from '../../src/server/core/news/repo';
import { readSqlTraderData, reportFilterSql } from '../../src/server/core/engine/repo';
import { withReportScope } from '../../src/server/core/engine/scope';
import { loadMistakeTags } from '../../src/server/core/risk/repo';
import { trades } from '../../src/server/db/schema';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, importTrades, money, newTrader } from './trades-support';

/**
 * The filter model has one definition (src/domain/reports/filter-clauses.ts) applied twice: by the engine to its columns
 * (every report, statistic and tool) and, written in SQL, by the Trade Log's pages. For random trades and random
 * filters of every key, both must pick exactly the same trades.
 */
const NY = 'America/New_York';
const DAYS = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07', '2025-03-10', '2025-03-11'];
const SYMBOLS = ['NQ', 'MNQ', 'ES', 'MES'];
const CONTRACTS = ['NQH5', 'MNQH5', 'ESH5', null];
const SETUPS = ['Breakout', 'Pullback', ''];
const SESSIONS = ['AM', 'PM', 'Lunch', 'Overnight'];
const TAGS = ['A+', 'FOMO', 'late entry', 'B setup'];

interface RandomTrade {
  day: number;
  symbol: number;
  contract: number;
  side: number;
  setup: number;
  session: number;
  tags: number[];
  pnlCents: number;
  quantity: number | null;
  entryMinute: number | null;
  holdSeconds: number;
  plan: 0 | 1 | 2;
  stopPoints: number;
  riskCents: number;
  account: 0 | 1 | 2;
}

const tradeArb: fc.Arbitrary<RandomTrade> = fc.record({
  day: fc.nat(DAYS.length - 1),
  symbol: fc.nat(SYMBOLS.length - 1),
  contract: fc.nat(CONTRACTS.length - 1),
  side: fc.nat(2),
  setup: fc.nat(SETUPS.length - 1),
  session: fc.nat(SESSIONS.length - 1),
  tags: fc.uniqueArray(fc.nat(TAGS.length - 1), { maxLength: 3 }),
  pnlCents: fc.oneof(fc.integer({ min: -50_000, max: 50_000 }), fc.constant(0), fc.constantFrom(-10_000, 20_000)),
  quantity: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  entryMinute: fc.option(fc.integer({ min: 0, max: 24 * 60 - 1 }), { nil: null }),
  holdSeconds: fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom(59, 60, 299, 300, 900, 3600, 14_400)),
  plan: fc.constantFrom(0, 1, 2),
  stopPoints: fc.integer({ min: 1, max: 40 }),
  riskCents: fc.integer({ min: 1, max: 60_000 }),
  account: fc.constantFrom(0, 1, 2),
}) as fc.Arbitrary<RandomTrade>;

const some = <T>(values: readonly T[]) => fc.subarray([...values], { maxLength: 2 });

/** Each key of the filter model with values a trader could pick for it. */
const KEY_VALUES = {
  days: fc
    .record({ from: fc.option(fc.constantFrom(...DAYS), { nil: null }), to: fc.option(fc.constantFrom(...DAYS), { nil: null }) })
    .map((d) => ({ range: 'custom' as const, ...d })),
  account: fc.constant({}),
  symbol: some(SYMBOLS).map((symbol) => ({ symbol })),
  contract: some(CONTRACTS.filter((c): c is string => c !== null)).map((contract) => ({ contract })),
  side: some(['Long', 'Short']).map((side) => ({ side })),
  setup: some(SETUPS).map((setup) => ({ setup })),
  session: some(SESSIONS).map((session) => ({ session })),
  tag: fc.record({ tag: some(TAGS), tagMode: fc.constantFrom(...TAG_MODES) }),
  result: some(['Win', 'Loss', 'BE'] as const).map((result) => ({ result: [...result] })),
  weekday: some([1, 2, 3, 4, 5]).map((weekday) => ({ weekday })),
  hour: some([3, 9, 10, 14, 15, 20]).map((hour) => ({ hour })),
  hold: some(HOLD_BUCKET_IDS).map((hold) => ({ hold })),
  size: fc.record({
    sizeMin: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
    sizeMax: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  }),
  r: fc.record({
    rMin: fc.option(fc.constantFrom(-2, -1, -0.5, 0, 0.25, 1, 2.5), { nil: null }),
    rMax: fc.option(fc.constantFrom(-1, 0, 0.5, 1, 3), { nil: null }),
    risk: fc.option(fc.constantFrom('with' as const, 'without' as const), { nil: null }),
  }),
  mistakes: fc.record({
    mistakes: fc.option(fc.constantFrom('with' as const, 'without' as const), { nil: null }),
    mistake: some(['fomo', 'Late Entry']),
  }),
  news: fc.record({ news: fc.constantFrom(...NEWS_WINDOWS), newsMode: fc.constantFrom(...NEWS_MODES) }),
};
type Key = keyof typeof KEY_VALUES;

/** A filter of one to three keys (more would pick nothing most of the time), accounts drawn from the trader's own. */
const filterArb = (accounts: readonly string[]): fc.Arbitrary<Partial<ReportFilter>> =>
  fc
    .uniqueArray(fc.constantFrom(...(Object.keys(KEY_VALUES) as Key[])), { minLength: 1, maxLength: 3 })
    .chain((keys) =>
      fc.tuple(
        ...keys.map((key) =>
          key === 'account' ? some([...accounts, 'unassigned']).map((account) => ({ account })) : (KEY_VALUES[key] as fc.Arbitrary<object>),
        ),
      ),
    )
    .map((parts) => Object.assign({}, ...parts) as Partial<ReportFilter>);

describe.each(backends())('the filter model in SQL and in the engine on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    // High-impact releases on every day of the trades, at whole minutes as the entries are: the news key meets entries
    // exactly on its windows' edges.
    await storeNewsEvents(
      app.server.database.db,
      DAYS.flatMap((day) => ['13:30', '15:00', '19:00'].map((time) => ({ title: `Release ${time}`, country: 'USD', at: `${day}T${time}:00Z` }))),
    );
  });
  afterAll(() => app?.close());

  async function trader(): Promise<{ client: ApiClient; userId: string; accounts: [string, string] }> {
    const client = await newTrader(app, 'filters');
    const userId = (await client.get('/api/auth/get-session')).body.user.id as string;
    const accounts: [string, string] = [(await createAccount(client, 'Apex')).id, (await createAccount(client, 'Topstep')).id];
    expect((await client.request('PUT', '/api/mistake-tags', { tags: ['FOMO', 'late entry'] })).status).toBe(200);
    // A default risk for NQ in every account: trades without a plan of their own take it.
    expect((await client.request('PUT', '/api/risk-defaults', { account_id: null, root: 'NQ', stop_points: '8' })).status).toBe(200);
    return { client, userId, accounts };
  }

  /** The trade as a row of a JSON backup (one request stores them all). */
  function backupRow(t: RandomTrade, n: number) {
    const day = DAYS[t.day]!;
    const entry = t.entryMinute === null ? null : new Date(Date.parse(`${day}T00:00:00Z`) + (t.entryMinute + 300) * 60_000);
    const side = t.side === 2 ? null : t.side === 0 ? 'Long' : 'Short';
    const price = 20_000 + (n % 50);
    return {
      id: `r${n}`,
      date: day,
      symbol: SYMBOLS[t.symbol],
      contract: CONTRACTS[t.contract],
      side,
      trade_type: SETUPS[t.setup],
      period: SESSIONS[t.session],
      tags: t.tags.map((k) => TAGS[k]),
      pnl: money(t.pnlCents),
      quantity: t.quantity === null ? null : String(t.quantity),
      entry_time: entry?.toISOString() ?? null,
      exit_time: entry ? new Date(entry.getTime() + t.holdSeconds * 1000).toISOString() : null,
      entry_price: t.plan === 1 && side && t.quantity ? String(price) : null,
      stop_price: t.plan === 1 && side && t.quantity ? String(side === 'Long' ? price - t.stopPoints : price + t.stopPoints) : null,
      risk_amount: t.plan === 2 ? money(t.riskCents) : null,
    };
  }

  async function sqlIds(userId: string, filter: ReportFilter, now: Date): Promise<string[]> {
    return app.server.database.withUser(userId, async (tx) => {
      const data = await readSqlTraderData(tx, userId, filter, () => loadMistakeTags(tx, userId));
      const where = reportFilterSql(filter, resolveReportRange(filter, now, NY), NY, data);
      const rows = await tx
        .select({ id: trades.id })
        .from(trades)
        .where(and(eq(trades.userId, userId), where ?? sql`true`));
      return rows.map((r) => r.id).sort();
    });
  }

  async function engineIds(userId: string, filter: ReportFilter, now: Date): Promise<string[]> {
    return withReportScope(app.server.database, userId, filter, now, (scope) => Array.from(scope.set.rows, (i) => scope.columns.id[i]!).sort());
  }

  it('pick the same trades for random trades and random filters of every key', async () => {
    const now = new Date('2025-03-12T15:00:00Z');
    let matched = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(tradeArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        async (randomTrades, seeds) => {
          const { client, userId, accounts } = await trader();
          const filters = seeds.map((seed) => fc.sample(filterArb(accounts), { seed, numRuns: 1 })[0]!);
          const rows = randomTrades.map(backupRow);
          for (const k of [0, 1] as const) {
            const mine = rows.filter((_, i) => randomTrades[i]!.account === k);
            if (mine.length > 0) await importTrades(client, accounts[k], mine);
          }
          // Unassigned trades are written one by one (a backup goes into an account).
          for (const [i, row] of rows.entries()) {
            if (randomTrades[i]!.account !== 2) continue;
            const { id: _id, ...fields } = row;
            await createTrade(client, fields);
          }
          for (const partial of filters) {
            const filter = createReportFilter(partial);
            const [fromSql, fromEngine] = [await sqlIds(userId, filter, now), await engineIds(userId, filter, now)];
            expect(fromEngine, JSON.stringify(partial)).toEqual(fromSql);
            matched += fromSql.length;
          }
        },
      ),
      { numRuns: backend === 'pglite' ? 6 : 4 },
    );
    // Not a comparison of empty sets: the filters picked trades.
    expect(matched).toBeGreaterThan(20);
  }, 300_000);

  it('the check sees a difference: a filter the engine applies and the SQL does not', async () => {
    const { client, userId, accounts } = await trader();
    await importTrades(client, accounts[0], [
      backupRow(
        {
          day: 0,
          symbol: 0,
          contract: 0,
          side: 0,
          setup: 0,
          session: 0,
          tags: [],
          pnlCents: 100,
          quantity: 1,
          entryMinute: 600,
          holdSeconds: 30,
          plan: 0,
          stopPoints: 1,
          riskCents: 1,
          account: 0,
        },
        1,
      ),
    ]);
    const now = new Date('2025-03-12T15:00:00Z');
    const everything = await sqlIds(userId, createReportFilter(), now);
    expect(await engineIds(userId, createReportFilter({ symbol: ['ES'] }), now)).not.toEqual(everything);
  });
});
