import { sql } from 'drizzle-orm';
import { formatR } from '../../src/domain/risk/format-r';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  breakdownReport,
  calendarReport,
  distributionReport,
  equityReport,
  heatmapReport,
  overviewReport,
  reportOptions,
} from '../../src/contract/reports';
import {
  BREAKDOWNS,
  computeBreakdown,
  formatFigure,
  listOverviewFigures,
  computeDistribution,
  computeEquity,
  computeHeatmap,
  computeOverview,
  computeYearCalendar,
  createReportFilter,
  createTradeSet,
  resolveReportRange,
  selectTrades,
  writeReportFilterParams,
  type ReportFilter,
  type ReportTrade,
  type TradeSet,
} from '../../src/domain/reports';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';
import { conforms } from '../support/contract';
import { brokerFile, importFile } from './imports-support';
import { cents, createAccount, createTrade, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * The Reports API on both databases: its figures equal the domain's own computation over a real broker export
 * imported through the API, for many filters; another trader's ids in a filter change nothing; a bad filter is a 400
 * that names its parameter; a change to the trades shows in the next report (the server keeps the trades in memory).
 */
const TOPSTEPX = 'topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv';
const NY = 'America/New_York';
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** The trades as the API lists them (the export), as report trades in trading order, computed here independently. */
function toTradingOrder(listed: TradeDto[]): ReportTrade[] {
  const us = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : null);
  const keyed = listed.map((t) => {
    const entry = us(t.entry_time);
    const exit = us(t.exit_time);
    const created = Date.parse(t.created_at);
    return { t, keys: [entry ?? exit ?? created, exit ?? entry ?? created, created] as const };
  });
  keyed.sort((a, b) => {
    if (a.t.date !== b.t.date) return a.t.date < b.t.date ? -1 : 1;
    for (let i = 0; i < 3; i++) if (a.keys[i] !== b.keys[i]) return a.keys[i]! - b.keys[i]!;
    return a.t.id < b.t.id ? -1 : 1;
  });
  return keyed.map(({ t }): ReportTrade => ({
    id: t.id,
    tradeDate: t.date,
    accountId: t.account_id,
    symbol: t.symbol,
    contract: (t.contract as string | null) ?? null,
    side: (t.side as string | null) ?? null,
    setup: t.trade_type,
    session: t.period,
    tags: t.tags,
    status: t.status,
    pnlCents: cents(t.pnl),
    commissionCents: cents(t.commission),
    entryMs: us(t.entry_time),
    exitMs: us(t.exit_time),
    quantity: t.quantity === null ? null : Number(t.quantity),
  }));
}

const query = (filter: ReportFilter, extra: Record<string, string> = {}) => {
  const params = writeReportFilterParams(filter);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : '';
};

describe.each(backends())('reports on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceAccount: { id: string };
  let bobAccount: { id: string };
  let trades: ReportTrade[];
  let all: TradeSet;

  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '200' }) });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
    aliceAccount = await createAccount(alice, 'Topstep 50K');
    bobAccount = await createAccount(bob, 'Bob Eval');
    const imported = await importFile(alice, { account_id: aliceAccount.id, time_zone: NY }, brokerFile(TOPSTEPX));
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(200);
    // A manual trade without times, unassigned, tagged: left out of the hour and hold reports and counted so.
    await createTrade(alice, {
      date: '2025-05-09',
      symbol: 'MNQ',
      period: 'PM',
      trade_type: 'Breakout',
      pnl: -25.5,
      commission: 1.24,
      tags: ['FOMO', 'A+'],
    });
    await createTrade(alice, { date: '2025-05-12', symbol: 'MES', period: 'AM', trade_type: 'Breakout', pnl: 40, tags: ['A+'] });
    // Bob trades the same instruments on the same days: none of his may reach Alice's reports.
    await importFile(bob, { account_id: bobAccount.id, time_zone: NY }, brokerFile(TOPSTEPX));
    const exported = await alice.get('/api/trades/export');
    expect(exported.status).toBe(200);
    trades = toTradingOrder(exported.body as TradeDto[]);
    expect(trades.length).toBe(336);
    all = createTradeSet(trades);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  const filters: Array<[string, ReportFilter]> = [
    ['everything', createReportFilter()],
    ['shorts', createReportFilter({ side: ['Short'] })],
    ['MNQ and MES longs entered 09:00-11:00', createReportFilter({ symbol: ['MNQ', 'MES'], side: ['Long'], hour: [9, 10] })],
    ['losses held 1-15 minutes on Tuesdays and Thursdays', createReportFilter({ result: ['Loss'], hold: ['1-5m', '5-15m'], weekday: [2, 4] })],
    ['May 2025, sizes 2 to 3', createReportFilter({ range: 'custom', from: '2025-05-01', to: '2025-05-31', sizeMin: 2, sizeMax: 3 })],
    ['tagged A+ but not FOMO', createReportFilter({ tag: ['A+'], tagMode: 'any' })],
    ['no FOMO, unassigned only', createReportFilter({ tag: ['FOMO'], tagMode: 'none', account: ['unassigned'] })],
  ];

  it.each(filters)(
    'overview, equity, heatmap, distributions and the calendar of %s equal the domain computed over the exported trades',
    async (_name, filter) => {
      const range = resolveReportRange(filter, new Date(), NY);
      const selected = selectTrades(all.columns, filter, range, NY);
      const overview = conforms(overviewReport, await alice.get(`/api/reports/overview${query(filter)}`));
      expect(overview.basis.trades).toBe(selected.rows.length);
      const opening = overview.openingBalanceCents;
      expect(overview.overview).toEqual(asJson(computeOverview(selected, { openingBalanceCents: opening })));
      const equity = conforms(equityReport, await alice.get(`/api/reports/equity${query(filter)}`));
      expect(equity.equity).toEqual(asJson(computeEquity(selected)));
      const heatmap = conforms(heatmapReport, await alice.get(`/api/reports/heatmap${query(filter)}`));
      expect(heatmap.heatmap).toEqual(asJson(computeHeatmap(selected, NY)));
      // Alice has no planned risk nor default here: the distribution in R leaves every trade out, as the domain does.
      for (const of of ['pnl', 'hold', 'r'] as const) {
        const dist = conforms(distributionReport, await alice.get(`/api/reports/distribution${query(filter, { of })}`));
        expect(dist.distribution).toEqual(asJson(computeDistribution(selected, of)));
      }
      const calendar = conforms(calendarReport, await alice.get(`/api/reports/calendar${query(filter, { year: '2025' })}`));
      expect(calendar.calendar).toEqual(asJson(computeYearCalendar(selected, 2025, 2025)));
    },
  );

  it.each(filters)(
    'the Trade Log takes the filter of %s: its list and statistics hold the same trades as the reports (the SQL and the domain agree)',
    async (_name, filter) => {
      const range = resolveReportRange(filter, new Date(), NY);
      const selected = selectTrades(all.columns, filter, range, NY);
      const expectedIds = Array.from(selected.rows, (i) => all.columns.id[i]).reverse();
      const listed = await listAll(alice, writeReportFilterParams(filter).toString());
      // Newest first in the trading order: the reports' order reversed.
      expect(listed.map((t) => t.id)).toEqual(expectedIds);
      const first = await alice.get(`/api/trades${query(filter, { limit: '5' })}`);
      expect(first.body.total).toBe(expectedIds.length);
      const stats = (await alice.get(`/api/trades/stats${query(filter, { days: 'none' })}`)).body.summary;
      const overview = conforms(overviewReport, await alice.get(`/api/reports/overview${query(filter)}`)).overview;
      expect({
        trades: stats.trades,
        wins: stats.wins,
        losses: stats.losses,
        net: stats.pnlCents,
        maxWin: stats.streaks.maxWinStreak,
        maxLoss: stats.streaks.maxLossStreak,
      }).toEqual({
        trades: overview.trades,
        wins: overview.wins,
        losses: overview.losses,
        net: overview.netCents,
        maxWin: overview.maxConsecutiveWins,
        maxLoss: overview.maxConsecutiveLosses,
      });
    },
  );

  it('the Trade Log: a filter with a search, a page at an offset, several accounts, texts with commas and quotes, and 400s naming the field', async () => {
    // A search within a filter: both apply.
    const shortsMatching = await listAll(alice, 'side=Short&q=MNQ');
    expect(shortsMatching.length).toBeGreaterThan(0);
    expect(shortsMatching.every((t) => t.side === 'Short' && /MNQ/i.test(`${t.symbol} ${t.notes} ${t.tags.join(' ')} ${t.trade_type}`))).toBe(true);
    // A jump to a position within a filter reads the same rows as walking to it.
    const longs = await listAll(alice, 'side=Long');
    const jump = (await alice.get('/api/trades?side=Long&offset=10&limit=5')).body;
    expect(jump.trades.map((t: TradeDto) => t.id)).toEqual(longs.slice(10, 15).map((t) => t.id));
    expect(jump.total).toBe(longs.length);
    // Both of Alice's scopes at once: her account and the unassigned trades are all her trades.
    expect((await alice.get(`/api/trades?account=${aliceAccount.id}&account=unassigned&limit=1`)).body.total).toBe(trades.length);
    expect((await alice.get(`/api/trades?account=${bobAccount.id}&limit=1`)).body.total).toBe(0);
    expect((await alice.get(`/api/trades?account=${bobAccount.id}&account=unassigned&limit=1`)).body.total).toBe(2);
    // A setup and a tag holding a comma, a quote and braces are one value each.
    const odd = await newTrader(app, 'odd');
    await createTrade(odd, { date: '2026-03-02', trade_type: 'Break, "retest" {A}', tags: ['x'], pnl: 5 });
    await createTrade(odd, { date: '2026-03-02', trade_type: 'Break', tags: ['y'], pnl: -5 });
    const oddSetup = encodeURIComponent('Break, "retest" {A}');
    expect((await odd.get(`/api/trades?setup=${oddSetup}`)).body.total).toBe(1);
    expect((await odd.get(`/api/trades/stats?setup=${oddSetup}&days=none`)).body.summary.pnlCents).toBe(500);
    expect((await odd.get('/api/trades?tag=y&tagMode=none')).body.total).toBe(1);
    // Bad filters: 400s that name the parameter.
    for (const [path, field] of [
      ['/api/trades?hour=24', 'hour.0'],
      ['/api/trades/stats?range=someday', 'range'],
      ['/api/trades?sizeMin=x', 'sizeMin'],
      ['/api/trades/stats?weekday=9', 'weekday.0'],
    ] as const) {
      const res = await alice.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatch(new RegExp(`^${field.replace('.', '\\.')}\\b`));
    }
  });

  it('every breakdown of every trade equals the domain, rows in the same order, with the trades left out counted', async () => {
    const names = (id: string) => (id === aliceAccount.id ? 'Topstep 50K' : undefined);
    for (const by of BREAKDOWNS) {
      const res = conforms(breakdownReport, await alice.get(`/api/reports/breakdown?by=${by}`));
      expect(res.breakdown, by).toEqual(asJson(computeBreakdown(all, by, { timeZone: NY, accountName: names })));
    }
    const hours = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=hour'));
    // The two manual trades have no entry time.
    expect(hours.breakdown.excluded).toBe(2);
    expect(hours.breakdown.rows.reduce((n, r) => n + r.trades, 0)).toBe(trades.length - 2);
    const accounts = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=account'));
    expect(accounts.breakdown.rows.map((r) => r.label).sort()).toEqual(['Topstep 50K', 'Unassigned']);
  });

  it('the imported figures themselves: net P&L to the cent is the sum of the listed trades', async () => {
    const { overview } = conforms(overviewReport, await alice.get('/api/reports/overview'));
    expect(overview.netCents).toBe(trades.reduce((s, t) => s + t.pnlCents, 0));
    expect(overview.feesCents).toBe(trades.reduce((s, t) => s + t.commissionCents, 0));
    expect(overview.trades).toBe(trades.length);
    expect(overview.tradesWithoutTimes).toBe(2);
    // The trader's statistics endpoint (per-day rollups) agrees on the shared figures.
    const stats = (await alice.get('/api/trades/stats?days=none')).body.summary;
    expect({ trades: overview.trades, net: overview.netCents, wins: overview.wins, losses: overview.losses }).toEqual({
      trades: stats.trades,
      net: stats.pnlCents,
      wins: stats.wins,
      losses: stats.losses,
    });
  });

  it("another trader's account id in a filter changes nothing: it matches none of this trader's trades", async () => {
    const own = conforms(overviewReport, await alice.get(`/api/reports/overview?account=${aliceAccount.id}`));
    const withBobs = conforms(overviewReport, await alice.get(`/api/reports/overview?account=${aliceAccount.id}&account=${bobAccount.id}`));
    expect(withBobs.overview).toEqual(own.overview);
    const onlyBobs = conforms(overviewReport, await alice.get(`/api/reports/overview?account=${bobAccount.id}`));
    expect(onlyBobs.overview.trades).toBe(0);
    expect(onlyBobs.basis.description).toContain('an unknown account');
    const breakdown = conforms(breakdownReport, await alice.get(`/api/reports/breakdown?by=account&account=${bobAccount.id}`));
    expect(breakdown.breakdown.rows).toEqual([]);
    // Bob's own reports hold only his import, whatever Alice added.
    const bobs = conforms(overviewReport, await bob.get('/api/reports/overview'));
    expect(bobs.overview.trades).toBe(trades.length - 2);
    const options = conforms(reportOptions, await bob.get('/api/reports/options'));
    expect(options.tag).not.toContain('FOMO');
    expect(options.setup).not.toContain('Breakout');
    expect(conforms(reportOptions, await alice.get('/api/reports/options')).tag).toContain('FOMO');
  });

  it('a bad filter is a 400 that names the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/api/reports/overview?hour=24', 'hour.0'],
      ['/api/reports/overview?hour=', 'hour.0'],
      ['/api/reports/overview?weekday=0', 'weekday.0'],
      ['/api/reports/overview?range=yesterday', 'range'],
      ['/api/reports/overview?range=today&from=2026-01-01', 'range'],
      ['/api/reports/overview?from=2026-02-30', 'from'],
      ['/api/reports/overview?from=2026-03-02&to=2026-03-01', 'from'],
      ['/api/reports/overview?account=abc', 'account.0'],
      ['/api/reports/overview?result=Won', 'result.0'],
      ['/api/reports/overview?hold=2-3m', 'hold.0'],
      ['/api/reports/overview?tagMode=some', 'tagMode'],
      ['/api/reports/overview?sizeMin=-1', 'sizeMin'],
      ['/api/reports/overview?sizeMin=3&sizeMax=2', 'sizeMin'],
      [`/api/reports/overview?symbol=${'X'.repeat(51)}`, 'symbol.0'],
      ['/api/reports/breakdown?by=color', 'by'],
      ['/api/reports/breakdown', 'by'],
      ['/api/reports/distribution?of=rr', 'of'],
      ['/api/reports/distribution', 'of'],
      ['/api/reports/calendar?year=1800', 'year'],
      [`/api/reports/overview?${Array.from({ length: 101 }, (_, i) => `tag=t${i}`).join('&')}`, 'tag'],
    ];
    for (const [path, field] of cases) {
      const res = await alice.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatch(new RegExp(`^${field.replace('.', '\\.')}\\b`));
    }
    expect((await app.client().get('/api/reports/overview')).status).toBe(401);
  });

  it('the filter in words, the range resolved in the trader zone, and the basis the AI cites', async () => {
    const res = conforms(overviewReport, await alice.get('/api/reports/overview?range=custom&from=2025-05-01&to=2025-05-31&symbol=MNQ&side=Short'));
    expect(res.basis.range).toEqual({ from: '2025-05-01', to: '2025-05-31' });
    expect(res.basis.description).toBe('May 1, 2025 to May 31, 2025; instrument MNQ; side Short');
    expect(res.basis.computedFrom).toMatch(
      /^Computed from \d+ trades, May \d+, 2025 to May \d+, 2025 \(May 1, 2025 to May 31, 2025; instrument MNQ; side Short\)$/,
    );
    // A trade-level filter has no balance: no drawdown percentage.
    expect(res.openingBalanceCents).toBeNull();
    const all = conforms(overviewReport, await alice.get('/api/reports/overview'));
    // The default starting balance (10,000.00) is known for all trades.
    expect(all.openingBalanceCents).toBe(1_000_000);
    expect(all.overview.maxDrawdown?.percentOfPeak).not.toBeNull();
  });

  it('a new trader, and a filter that matches nothing: zeros and empty reports, no invented numbers', async () => {
    const carol = await newTrader(app, 'carol');
    const overview = conforms(overviewReport, await carol.get('/api/reports/overview'));
    expect(overview.overview).toMatchObject({ trades: 0, netCents: 0, winRate: null, profitFactor: null, maxDrawdown: null, bestDay: null });
    expect(overview.basis.computedFrom).toBe('Computed from 0 trades');
    expect(conforms(breakdownReport, await carol.get('/api/reports/breakdown?by=instrument')).breakdown).toEqual({
      by: 'instrument',
      rows: [],
      total: 0,
      excluded: 0,
      tradesWithoutRisk: 0,
    });
    expect(conforms(heatmapReport, await carol.get('/api/reports/heatmap')).heatmap.cells).toEqual([]);
    expect(conforms(distributionReport, await carol.get('/api/reports/distribution?of=pnl')).distribution.buckets).toEqual([]);
    expect(conforms(calendarReport, await carol.get('/api/reports/calendar')).calendar.days).toEqual([]);
    expect(conforms(equityReport, await carol.get('/api/reports/equity')).equity).toEqual({
      byTrade: [],
      byDay: [],
      trades: 0,
      days: 0,
      sampled: false,
    });
    const nothing = conforms(overviewReport, await alice.get('/api/reports/overview?symbol=ZZZ'));
    expect(nothing.overview.trades).toBe(0);
  });

  it("the analyst's report tool: any breakdown with any filter, the page's own figures, and the filter in its source line", async () => {
    provider.clear();
    const session = (await alice.get('/api/chat/sessions/current')).body as { id: string };
    provider.reply(
      {
        toolCalls: [
          {
            name: 'get_report',
            arguments: {
              report: 'breakdown',
              by: 'hour',
              filter: { account: ['topstep 50k'], side: ['Short'], range: 'custom', from: '2025-05-01', to: '2025-05-31' },
            },
          },
        ],
      },
      { text: 'Your May shorts by hour.' },
      { text: 'Shorts by hour' },
    );
    const { events } = await postSse(alice, '/api/chat', { sessionId: session.id, message: 'How did my May shorts do by hour?' });
    const filter = createReportFilter({ account: [aliceAccount.id], side: ['Short'], range: 'custom', from: '2025-05-01', to: '2025-05-31' });
    const expected = computeBreakdown(selectTrades(all.columns, filter, resolveReportRange(filter, new Date(), NY), NY), 'hour', { timeZone: NY });
    const source = events.find((e: { type: string }) => e.type === 'source');
    expect(source).toMatchObject({ tool: 'get_report', trades: expected.total });
    expect(source.text).toMatch(
      /^computed from \d+ trades, May \d+, 2025 to May \d+, 2025 \(May 1, 2025 to May 31, 2025; account Topstep 50K; side Short\)$/,
    );
    const tool = JSON.parse(provider.completions()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content);
    expect(tool.rows.map((r: Record<string, unknown>) => [r['hour of entry'], r.trades, r.net_pnl])).toEqual(
      expected.rows.map((r) => [r.label, r.trades, formatFigure('money', r.netCents)]),
    );
    const done = events.find((e: { type: string }) => e.type === 'done');
    expect(done.message.meta.charts[0].points).toEqual(expected.rows.map((r) => ({ label: r.label, cents: r.netCents })));

    // The overview: every figure the page shows, written as the page writes it.
    provider.reply(
      { toolCalls: [{ name: 'get_report', arguments: { report: 'overview', filter: { symbol: ['MNQ'], hour: [9, 10] } } }] },
      { text: 'MNQ mornings.' },
    );
    await postSse(alice, '/api/chat', { sessionId: session.id, message: 'And MNQ in the morning?' });
    const overviewTool = JSON.parse(
      provider
        .completions()
        .at(-1)!
        .body.messages.filter((m: { role: string }) => m.role === 'tool')
        .at(-1).content,
    );
    const page = (await alice.get('/api/reports/overview?symbol=MNQ&hour=9&hour=10')).body.overview;
    for (const figure of listOverviewFigures(page)) {
      expect(overviewTool.figures[figure.label], figure.label).toBe(
        `${formatFigure(figure.kind, figure.value, figure.infinite)}${figure.note ? ` (${figure.note})` : ''}`,
      );
    }
    // The same trades in R. None has a plan of its own: without a default, the tool says there is no R.
    expect(overviewTool.in_r).toEqual({ note: 'No trade of this filter has a planned risk (a stop, a dollar risk or a default)' });
    const riskDefault = (await alice.put('/api/risk-defaults', { risk_amount: 100 })).body as { id: string };
    provider.reply(
      { toolCalls: [{ name: 'get_report', arguments: { report: 'overview', filter: { symbol: ['MNQ'], hour: [9, 10] } } }] },
      { text: 'MNQ mornings in R.' },
    );
    await postSse(alice, '/api/chat', { sessionId: session.id, message: 'And in R?' });
    const inR = JSON.parse(
      provider
        .completions()
        .at(-1)!
        .body.messages.filter((m: { role: string }) => m.role === 'tool')
        .at(-1).content,
    ).in_r;
    const pageR = (await alice.get('/api/reports/overview?symbol=MNQ&hour=9&hour=10')).body.r;
    // $100 a trade: a trade's R is its net P&L in hundreds of dollars, the page's figures as the page writes them.
    expect(pageR.tradesWithRisk).toBe(page.trades);
    expect(inR).toEqual({
      'Total R': formatR(pageR.totalR),
      'Expectancy (average R)': formatR(pageR.expectancyR),
      'Average win': formatR(pageR.averageWinR),
      'Average loss': formatR(pageR.averageLossR),
      'Profit factor in R (R won over R lost)': pageR.profitFactorR.toFixed(2),
      'Trades with a planned risk': page.trades,
    });
    expect(pageR.totalR).toBeCloseTo(page.netCents / 10_000, 2);
    expect((await alice.delete(`/api/risk-defaults/${riskDefault.id}`)).status).toBe(204);

    // Bob's account named by the model: refused, nothing of Bob's is read.
    provider.reply(
      { toolCalls: [{ name: 'get_report', arguments: { report: 'overview', filter: { account: ['Bob Eval'] } } }] },
      { text: 'No such account.' },
    );
    await postSse(alice, '/api/chat', { sessionId: session.id, message: "What about Bob's account?" });
    const refused = JSON.parse(
      provider
        .completions()
        .at(-1)!
        .body.messages.filter((m: { role: string }) => m.role === 'tool')
        .at(-1).content,
    );
    expect(refused).toEqual({ error: 'No trading account named "Bob Eval"' });
    provider.reply({ toolCalls: [{ name: 'get_report', arguments: { report: 'breakdown', filter: {} } }] }, { text: 'Which one?' });
    await postSse(alice, '/api/chat', { sessionId: session.id, message: 'Break it down' });
    expect(
      JSON.parse(
        provider
          .completions()
          .at(-1)!
          .body.messages.filter((m: { role: string }) => m.role === 'tool')
          .at(-1).content,
      ).error,
    ).toMatch(/^by is required/);
  });

  it('the next report sees every change: a new trade, an edit, a delete; a notes edit keeps the copy', async () => {
    const dave = await newTrader(app, 'dave');
    const version = async () => {
      const result = await app.server.database.db.execute(
        sql`select version from trade_versions where user_id = (select id from "user" where email like 'dave-%' limit 1)`,
      );
      return Number((result as unknown as { rows: Array<{ version: string }> }).rows[0]?.version ?? 0);
    };
    const net = async () => conforms(overviewReport, await dave.get('/api/reports/overview')).overview.netCents;
    expect(await net()).toBe(0);
    const first = await createTrade(dave, { date: '2026-03-02', pnl: 100 });
    expect(await net()).toBe(10_000);
    const v1 = await version();
    expect(v1).toBeGreaterThan(0);
    await dave.patch(`/api/trades/${first.id}`, { pnl: -30 });
    expect(await net()).toBe(-3_000);
    const v2 = await version();
    expect(v2).toBeGreaterThan(v1);
    await dave.patch(`/api/trades/${first.id}`, { notes: 'only words' });
    expect(await version()).toBe(v2);
    await dave.delete(`/api/trades/${first.id}`);
    expect(await net()).toBe(0);
    expect(await version()).toBeGreaterThan(v2);
  });
});
