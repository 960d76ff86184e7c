import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { getTodayInZone } from '../../src/domain/dates';
import { createAccount, createTrade, importTrades, listAll, newTrader } from './trades-support';

/**
 * The R-multiple range, has / has no planned risk, with /
 * without a mistake and a given mistake, read alike by the Trade Log's list (SQL), its statistics (SQL) and the
 * reports (the domain's selectTrades over the trades in memory); bad values are a 400 naming the parameter; another
 * trader's trades, defaults and mistakes never count.
 */
describe.each(backends())('the R and mistake filters on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  const names = new Map<string, string>();

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'rfilter-alice'), newTrader(app, 'rfilter-bob')]);
    const day = { date: '2026-05-04', period: 'AM' };
    const add = async (name: string, input: Record<string, unknown>) => names.set((await createTrade(alice, { ...day, ...input })).id, name);
    // A: stop 10 points under 2 NQ, $400 risked, +$800 = +2R. B: $300 planned, -$150 = -0.5R, tagged 'fomo'.
    await add('A', { symbol: 'NQ', side: 'Long', quantity: 2, entry_price: 18000, stop_price: 17990, pnl: 800, tags: ['A+'] });
    await add('B', { symbol: 'NQ', risk_amount: 300, pnl: -150, tags: ['fomo'] });
    // C: 4 MES without a plan; the MES default of 5 points prices it 5 x 4 x $5 = $100, -$100 = -1R exactly.
    await add('C', { symbol: 'MES', quantity: 4, pnl: -100, tags: ['Moved stop'] });
    // D: ES without a plan or a default of Alice's: no R (Bob's ES default is his).
    await add('D', { symbol: 'ES', quantity: 1, pnl: 50, tags: ['FOMO', 'Oversized'] });
    // E: $100 planned, +$100 = +1R exactly, on the bound of rMin=1 and rMax=1.
    await add('E', { symbol: 'NQ', risk_amount: 100, pnl: 100 });
    expect((await alice.put('/api/risk-defaults', { root: 'MES', stop_points: 5 })).status).toBe(200);
    expect((await alice.put('/api/mistake-tags', { tags: ['FOMO', 'Moved stop'] })).status).toBe(200);
    // Bob: the same tags and a default for every instrument; none of it is Alice's.
    await createTrade(bob, { ...day, symbol: 'ES', pnl: -70, tags: ['FOMO'] });
    await createTrade(bob, { ...day, symbol: 'NQ', pnl: 30, tags: ['Oversized'], risk_amount: 10 });
    expect((await bob.put('/api/risk-defaults', { risk_amount: 25 })).status).toBe(200);
    expect((await bob.put('/api/mistake-tags', { tags: ['Oversized', 'A+'] })).status).toBe(200);
  });
  afterAll(() => app?.close());

  /** The trades a filter means, by name, as the list, the statistics and the Overview report each see them. */
  async function read(client: ApiClient, query: string) {
    const listed = (await listAll(client, query)).map((t) => names.get(t.id) ?? `other:${t.symbol}`).sort();
    const stats = await client.get(`/api/trades/stats?${query}&days=none`);
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    const overview = await client.get(`/api/reports/overview?${query}`);
    expect(overview.status, JSON.stringify(overview.body)).toBe(200);
    return {
      listed,
      stats: [stats.body.summary.trades, stats.body.summary.pnlCents],
      report: [overview.body.basis.trades, overview.body.overview.netCents],
    };
  }

  const cases: Array<[string, string[], number]> = [
    ['risk=with', ['A', 'B', 'C', 'E'], 65_000],
    ['risk=without', ['D'], 5_000],
    // Bounds are inclusive and exact: E is +1R, C is -1R.
    ['rMin=1', ['A', 'E'], 90_000],
    ['rMin=1.01', ['A'], 80_000],
    ['rMax=-1', ['C'], -10_000],
    ['rMin=-1&rMax=1', ['B', 'C', 'E'], -15_000],
    ['rMin=-0.5&rMax=-0.5', ['B'], -15_000],
    ['risk=with&rMin=%2B2', ['A'], 80_000],
    // 'fomo' is the mistake FOMO, as the Mistakes report reads it.
    ['mistakes=with', ['B', 'C', 'D'], -20_000],
    ['mistakes=without', ['A', 'E'], 90_000],
    ['mistake=FOMO', ['B', 'D'], -10_000],
    ['mistake=moved%20stop&mistake=Oversized', ['C', 'D'], -5_000],
    ['mistakes=with&risk=with', ['B', 'C'], -25_000],
    ['mistakes=without&rMin=2&symbol=NQ', ['A'], 80_000],
  ];

  it.each(cases)('reads %s alike in the list, the statistics and the reports', async (query, expected, netCents) => {
    const seen = await read(alice, query);
    expect(seen.listed).toEqual(expected);
    expect(seen.stats).toEqual([expected.length, netCents]);
    expect(seen.report).toEqual([expected.length, netCents]);
  });

  it("counts only the trader's own trades, defaults and mistakes", async () => {
    // Bob's default prices every trade of his; his mistakes are Oversized and A+, not FOMO.
    expect((await read(bob, 'risk=with')).listed).toEqual(['other:ES', 'other:NQ']);
    expect((await read(bob, 'risk=without')).stats).toEqual([0, 0]);
    expect((await read(bob, 'mistakes=with')).listed).toEqual(['other:NQ']);
    expect((await read(bob, 'rMin=3')).report).toEqual([1, 3_000]);
  });

  it('follows a change of the mistakes or the defaults at once, though the trades did not change', async () => {
    expect((await read(alice, 'mistakes=with')).stats).toEqual([3, -20_000]);
    expect((await alice.put('/api/mistake-tags', { tags: ['Oversized'] })).status).toBe(200);
    const fewer = await read(alice, 'mistakes=with');
    expect([fewer.listed, fewer.stats, fewer.report]).toEqual([['D'], [1, 5_000], [1, 5_000]]);
    expect((await alice.put('/api/mistake-tags', { tags: ['FOMO', 'Moved stop'] })).status).toBe(200);

    // A default for every instrument prices D: $50 over $25 = +2R.
    expect((await read(alice, 'risk=without')).stats).toEqual([1, 5_000]);
    const everything = await alice.put('/api/risk-defaults', { risk_amount: 25 });
    expect(everything.status).toBe(200);
    const priced = await read(alice, 'rMin=2');
    expect([priced.listed, priced.stats, priced.report]).toEqual([
      ['A', 'D'],
      [2, 85_000],
      [2, 85_000],
    ]);
    expect((await alice.delete(`/api/risk-defaults/${everything.body.id}`)).status).toBe(204);
    expect((await read(alice, 'rMin=2')).listed).toEqual(['A']);
  });

  it('answers the filter in R, by day and by calendar week, with the trades without a planned risk counted apart', async () => {
    const res = await alice.get('/api/reports/r');
    expect(res.status).toBe(200);
    // +2 - 0.5 - 1 + 1 = 1.5R over 4 trades with a plan; D has none.
    const totals = { trades: 5, tradesWithRisk: 4, tradesWithoutRisk: 1, totalR: 1.5 };
    expect(res.body.r).toEqual({
      summary: { ...totals, expectancyR: 0.38, averageWinR: 1.5, averageLossR: -0.75, netCentsWithRisk: 65_000, profitFactorR: 2 },
      days: [{ tradeDate: '2026-05-04', ...totals }],
      weeks: [{ weekStart: '2026-05-03', ...totals }],
    });
    // The filter model applies (mistakes: B, C, D), and a day without a trade of the filter has no row.
    expect((await alice.get('/api/reports/r?mistakes=with')).body.r.summary).toMatchObject({
      trades: 3,
      tradesWithRisk: 2,
      tradesWithoutRisk: 1,
      totalR: -1.5,
    });
    expect((await alice.get('/api/reports/r?range=custom&from=2026-05-05&to=2026-05-31')).body.r).toMatchObject({
      days: [],
      weeks: [],
      summary: { trades: 0, totalR: null },
    });
    // Bob's: his own two trades, priced by his own default ($25: -$70 is -2.8R) and plan ($10: +$30 is +3R).
    expect((await bob.get('/api/reports/r')).body.r.summary).toMatchObject({ trades: 2, tradesWithRisk: 2, totalR: 0.2 });
    expect((await alice.get('/api/reports/r?rMin=abc')).body.error).toMatch(/^rMin: /);
  });

  it("narrows the figures in R by the Trade Log's search and its trades awaiting Undo, as its list and statistics do, each trader their own", async () => {
    const idOf = (name: string) => [...names].find(([, n]) => n === name)![0];
    /** The R summary of a Trade Log's query, with the count its statistics give for the same query. */
    async function inR(client: ApiClient, query: string) {
      const res = await client.get(`/api/reports/r?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const stats = await client.get(`/api/trades/stats?${query}&days=none`);
      expect(stats.status, JSON.stringify(stats.body)).toBe(200);
      expect(res.body.r.summary.trades).toBe(stats.body.summary.trades);
      return res.body.r.summary as { trades: number; tradesWithRisk: number; tradesWithoutRisk: number; totalR: number | null };
    }
    // 'fomo' finds B ('fomo', -0.5R) and D ('FOMO', no plan), not Bob's FOMO trade.
    expect((await listAll(alice, 'q=fomo')).map((t) => names.get(t.id)).sort()).toEqual(['B', 'D']);
    expect(await inR(alice, 'account=all&q=fomo')).toMatchObject({ trades: 2, tradesWithRisk: 1, tradesWithoutRisk: 1, totalR: -0.5 });
    // The search and the filter together, as the list reads them; a blank search is none.
    expect(await inR(alice, 'q=fomo&symbol=ES')).toMatchObject({ trades: 1, tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null });
    expect(await inR(alice, 'q=%20%20')).toMatchObject({ trades: 5, totalR: 1.5 });
    // B's delete waits for Undo: 1.5R without its -0.5R is 2R.
    expect(await inR(alice, `exclude=${idOf('B')}`)).toMatchObject({ trades: 4, tradesWithRisk: 3, totalR: 2 });
    expect(await inR(alice, `q=fomo&exclude=${idOf('B')},${idOf('D')}`)).toMatchObject({ trades: 0, totalR: null });
    // Bob's search finds his own FOMO trade only (-$70 over his $25 default: -2.8R); Alice's ids leave nothing of his out.
    expect(await inR(bob, 'q=fomo')).toMatchObject({ trades: 1, tradesWithRisk: 1, totalR: -2.8 });
    expect(await inR(bob, `exclude=${idOf('A')}`)).toMatchObject({ trades: 2, totalR: 0.2 });
    expect((await alice.get('/api/reports/r?exclude=abc')).body.error).toMatch(/^exclude\b.*trade ids/);
    expect((await alice.get(`/api/reports/r?q=${'x'.repeat(201)}`)).body.error).toMatch(/^q: /);
  });

  it("finds in R the trades the Trade Log's search finds, column by column, as its list and statistics do, each trader their own", async () => {
    const [carol, dave] = await Promise.all([newTrader(app, 'rsearch-carol'), newTrader(app, 'rsearch-dave')]);
    const topstep = await createAccount(carol, 'Topstep Combine');
    const apex = await createAccount(carol, 'Apex_50K');
    const named = new Map<string, string>();
    // Mon 4 May: T1 (imported, contract NQM6, tags A+ then FOMO, no plan) and T5 (FOMO then A+, -1R); Tue 5: T2 (-0.5R);
    // Wed 6: T3 (no plan, notes with a literal %); Fri 8: T4 (accented tag and notes, +0.5R).
    await importTrades(carol, topstep.id, [
      { date: '2026-05-04', period: 'AM', symbol: 'NQ', contract: 'NQM6', trade_type: 'Breakout', pnl: 200, tags: ['A+', 'FOMO'] },
    ]);
    named.set((await listAll(carol)).find((t) => t.contract === 'NQM6')!.id, 'T1');
    const add = async (name: string, input: Record<string, unknown>) => named.set((await createTrade(carol, input)).id, name);
    await add('T2', {
      date: '2026-05-05',
      symbol: 'ES',
      account_id: apex.id,
      trade_type: 'Pullback',
      pnl: -50,
      risk_amount: 100,
      tags: ['FOMO'],
      notes: 'risked 100 on it',
    });
    await add('T3', {
      date: '2026-05-06',
      symbol: 'MES',
      account_id: null,
      trade_type: 'Reversal',
      pnl: 0,
      tags: ['A+'],
      notes: 'Moved my stop, 100% sure',
    });
    await add('T4', {
      date: '2026-05-08',
      symbol: 'CL',
      account_id: null,
      trade_type: 'Opening Drive',
      pnl: 30,
      risk_amount: 60,
      tags: ['Été'],
      notes: 'ÉNORME gap',
    });
    await add('T5', {
      date: '2026-05-04',
      symbol: 'RTY',
      account_id: null,
      trade_type: 'Breakout',
      pnl: -100,
      risk_amount: 100,
      tags: ['FOMO', 'A+'],
      notes: 'size 50 lots',
    });
    // Dave holds the same texts; none of his trades may count for Carol, nor hers for him.
    const daves = await createAccount(dave, 'Topstep Combine');
    await createTrade(dave, {
      date: '2026-05-06',
      symbol: 'NQ',
      account_id: daves.id,
      trade_type: 'Pullback',
      pnl: 40,
      risk_amount: 20,
      tags: ['A+', 'FOMO'],
      notes: 'Moved my stop, 100% sure',
    });

    /** The trades the list finds for a term, by name, and the R panel's figures for it, whose count must be the statistics'. */
    async function search(client: ApiClient, term: string) {
      const q = `q=${encodeURIComponent(term)}`;
      const res = await client.get(`/api/reports/r?${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const stats = await client.get(`/api/trades/stats?${q}&days=none`);
      expect(stats.status, JSON.stringify(stats.body)).toBe(200);
      const listed = (await listAll(client, q)).map((t) => named.get(t.id) ?? `other:${t.symbol}`).sort();
      expect([term, res.body.r.summary.trades, listed.length]).toEqual([term, stats.body.summary.trades, stats.body.summary.trades]);
      return {
        listed,
        r: res.body.r as {
          summary: { trades: number; tradesWithoutRisk: number; totalR: number | null };
          days: Array<{ tradeDate: string; trades: number }>;
        },
      };
    }
    const cases: Array<[string, string[]]> = [
      ['NQ', ['T1']], // symbol (and contract)
      ['m6', ['T1']], // contract only
      ['pullback', ['T2']], // setup
      ['Revers', ['T3']],
      ['A+', ['T1', 'T3', 'T5']], // tag
      ['A+ FOMO', ['T1']], // two tags in their stored order; T5 has them the other way round
      ['fomo', ['T1', 'T2', 'T5']],
      ['moved my', ['T3']], // notes
      ['topstep', ['T1']], // account name
      ['_50', ['T2']], // '_' literally: the account Apex_50K, not 'size 50'
      ['100%', ['T3']], // '%' literally: not 'risked 100 on it'
      ['wednesday', ['T3']], // day of week
      ['MONDAY', ['T1', 'T5']],
      ['loss', ['T2', 'T5']], // status
      ['BE', ['T3']],
      ['Été', ['T4']],
      ['opening drive', ['T4']],
      ['zzz-nothing', []],
      ['day', ['T1', 'T2', 'T3', 'T4', 'T5']],
    ];
    for (const [term, expected] of cases) expect([term, (await search(carol, term)).listed]).toEqual([term, expected]);
    // fomo: T1 without a plan, -0.5 - 1 = -1.5R; two days, Monday's two trades together.
    expect((await search(carol, 'fomo')).r).toMatchObject({
      summary: { trades: 3, tradesWithoutRisk: 1, totalR: -1.5 },
      days: [
        { tradeDate: '2026-05-04', trades: 2 },
        { tradeDate: '2026-05-05', trades: 1 },
      ],
    });
    // Accented letters fold as the database's locale folds them (an embedded database's C locale does not): whatever it
    // finds, the R panel finds the same trades (the counts are compared in search()).
    for (const term of ['été', 'ÉTÉ', 'énorme', 'Énorme', 'ÉNORME']) await search(carol, term);
    expect((await search(carol, 'ÉNORME')).listed).toEqual(['T4']);
    // Dave's own trade only, found by his notes, tags and account as Carol's are.
    for (const term of ['fomo', 'moved my', 'topstep', '100%', 'A+ FOMO']) {
      const found = await search(dave, term);
      expect([term, found.listed, found.r.summary.totalR]).toEqual([term, ['other:NQ'], 2]);
    }
  });

  it('distributes the R of the trades with a planned risk in half-R buckets, the others counted apart, each trader their own', async () => {
    const res = await alice.get('/api/reports/distribution?of=r');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { distribution } = res.body;
    // C -1R, B -0.5R, E +1R, A +2R: the buckets from C's to A's, D (no plan, no default) left out.
    expect([distribution.of, distribution.total, distribution.excluded]).toEqual(['r', 5, 1]);
    const buckets = (list: Array<{ label: string; trades: number; netCents: number }>) => list.map((b) => [b.label, b.trades, b.netCents]);
    expect(buckets(distribution.buckets)).toEqual([
      ['-1R to -0.5R', 1, -10_000],
      ['-0.5R to 0R', 1, -15_000],
      ['0R to 0.5R', 0, 0],
      ['0.5R to 1R', 0, 0],
      ['1R to 1.5R', 1, 10_000],
      ['1.5R to 2R', 0, 0],
      ['2R to 2.5R', 1, 80_000],
    ]);
    // The filter model applies: NQ only (A, B, E).
    const nq = (await alice.get('/api/reports/distribution?of=r&symbol=NQ')).body.distribution;
    expect([nq.total, nq.excluded, nq.buckets.reduce((n: number, b: { trades: number }) => n + b.trades, 0)]).toEqual([3, 0, 3]);
    // Bob's two trades by his own plan and default: -$70 on $25 is -2.8R, +$30 on $10 is +3R (open bucket). None of Alice's.
    const bobs = (await bob.get('/api/reports/distribution?of=r')).body.distribution;
    expect([bobs.total, bobs.excluded]).toEqual([2, 0]);
    expect(buckets(bobs.buckets).filter(([, trades]) => trades !== 0)).toEqual([
      ['-3R to -2.5R', 1, -7_000],
      ['3R and over', 1, 3_000],
    ]);
  });

  it("breaks the trades down with each row's net and expectancy in R, the trades without a planned risk counted apart", async () => {
    const res = await alice.get('/api/reports/breakdown?by=instrument');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = (list: Array<{ key: string; trades: number; netCents: number; r: unknown }>) =>
      Object.fromEntries(list.map((row) => [row.key, [row.trades, row.netCents, row.r]]));
    // NQ: A +2R, B -0.5R, E +1R: +2.5R, 0.83R a trade. MES: C -1R by Alice's default. ES: D, no planned risk.
    expect(rows(res.body.breakdown.rows)).toEqual({
      NQ: [3, 75_000, { tradesWithRisk: 3, tradesWithoutRisk: 0, totalR: 2.5, expectancyR: 0.83 }],
      MES: [1, -10_000, { tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: -1, expectancyR: -1 }],
      ES: [1, 5_000, { tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null, expectancyR: null }],
    });
    expect(res.body.breakdown.tradesWithoutRisk).toBe(1);
    // Bob's ES is priced by his own default, never Alice's trades: -2.8R and +3R.
    const bobs = (await bob.get('/api/reports/breakdown?by=instrument')).body.breakdown;
    expect(rows(bobs.rows)).toEqual({
      ES: [1, -7_000, { tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: -2.8, expectancyR: -2.8 }],
      NQ: [1, 3_000, { tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 3, expectancyR: 3 }],
    });
    expect(bobs.tradesWithoutRisk).toBe(0);
  });

  it('refuses a distribution of anything but pnl, hold or r with a 400 naming of', async () => {
    for (const query of ['of=R', 'of=risk', 'of=', '']) {
      const res = await alice.get(`/api/reports/distribution?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.error, query).toMatch(/^of: /);
    }
    expect((await alice.get('/api/reports/distribution?of=rr')).body.error).toBe('of: of must be one of pnl, hold, r');
  });

  it("gives Reflect's analysis in R, per session and setup, from the trades' plans and the trader's own defaults", async () => {
    const trader = await newTrader(app, 'rfilter-reflect');
    const day = { date: getTodayInZone(new Date(), 'America/New_York') };
    // AM Breakout +2R (stop 10 points on 2 NQ: $400), AM Reversal -0.5R ($300), PM Breakout -1R (the MES default of
    // 5 points on 4: $100), PM ES without a plan or a default of the trader's (Bob's default for every instrument is his).
    await createTrade(trader, {
      ...day,
      period: 'AM',
      trade_type: 'Breakout',
      symbol: 'NQ',
      side: 'Long',
      quantity: 2,
      entry_price: 18000,
      stop_price: 17990,
      pnl: 800,
    });
    await createTrade(trader, { ...day, period: 'AM', trade_type: 'Reversal', symbol: 'NQ', risk_amount: 300, pnl: -150 });
    await createTrade(trader, { ...day, period: 'PM', trade_type: 'Breakout', symbol: 'MES', quantity: 4, pnl: -100 });
    await createTrade(trader, { ...day, period: 'PM', trade_type: 'Scalp', symbol: 'ES', pnl: 50 });
    expect((await trader.put('/api/risk-defaults', { root: 'MES', stop_points: 5 })).status).toBe(200);
    const res = await trader.post('/api/analyze-reflections', { period: 'day' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { r } = res.body.report;
    expect(r.totals).toEqual({
      trades: 4,
      tradesWithRisk: 3,
      tradesWithoutRisk: 1,
      totalR: 0.5,
      expectancyR: 0.17,
      averageWinR: 2,
      averageLossR: -0.75,
      netCentsWithRisk: 55_000,
      profitFactorR: 1.33,
    });
    const rows = (list: Array<Record<string, unknown>>, key: string) =>
      Object.fromEntries(list.map((g) => [g[key], [g.tradesWithoutRisk, g.totalR]]));
    expect(rows(r.byTimeOfDay, 'session')).toEqual({ AM: [0, 1.5], PM: [1, -1] });
    expect(rows(r.bySetupType, 'setup')).toEqual({ Breakout: [0, 1], Reversal: [0, -0.5], Scalp: [1, null] });
  });

  it('refuses a bad R or mistake filter with a 400 naming the parameter, on every endpoint', async () => {
    const refusals: Array<[string, RegExp]> = [
      ['rMin=abc', /^rMin: rMin must be an R-multiple/],
      ['rMax=1.234', /^rMax: rMax must be an R-multiple/],
      ['rMin=', /^rMin: /],
      ['rMin=2&rMax=1', /^rMin: must not be more than rMax$/],
      ['rMin=99999', /^rMin: rMin must be from -10000 to 10000$/],
      ['risk=maybe', /^risk: risk must be with or without$/],
      ['risk=without&rMax=0', /^risk: must not be without with an R range/],
      ['mistakes=yes', /^mistakes: mistakes must be with or without$/],
      ['mistake=', /^mistake\.0: mistake must not be empty$/],
    ];
    for (const [query, message] of refusals) {
      for (const path of ['/api/trades', '/api/trades/stats', '/api/reports/overview', '/api/reports/mistakes']) {
        const res = await alice.get(`${path}?${query}`);
        expect([path, query, res.status]).toEqual([path, query, 400]);
        expect(res.body.error, `${path}?${query}`).toMatch(message);
      }
    }
  });
});
