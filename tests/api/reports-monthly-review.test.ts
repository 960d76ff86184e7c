import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyReviewReport } from '../../src/contract/monthly-review';
import { breakdownReport, calendarReport, depthReport, equityReport, mistakesReport, overviewReport } from '../../src/contract/reports';
import { apiError } from '../../src/contract/common';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * The monthly review on both databases: every figure of it is what the Overview, Calendar, Equity, Breakdowns, Depth
 * and Mistakes reports answer for the same filter over the month's days, to the cent; the days either side of the
 * month never count; another trader's review holds none of the trader's trades.
 */
describe.each(backends())('monthly review on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let apex: { id: string };
  let demo: { id: string };

  const at = (day: string, time: string) => `${day}T${time}:00-05:00`;
  /** The other reports' filter for March 2026 with `extra` keys. */
  const march = (extra = '') => `range=custom&from=2026-03-01&to=2026-03-31${extra ? `&${extra}` : ''}`;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'review-alice'), newTrader(app, 'review-bob')]);
    apex = await createAccount(alice, 'Apex', { starting_balance: '50000' });
    demo = await createAccount(alice, 'Demo');
    expect((await alice.put('/api/mistake-tags', { tags: ['FOMO', 'Moved stop'] })).status).toBe(200);
    const trades: Array<[account: string, day: string, time: string, symbol: string, setup: string, pnl: number, fee: number, tags: string[]]> = [
      // The last day of February and the first of April: outside the month.
      [apex.id, '2026-02-27', '10:00', 'NQ', 'Breakout', 5000, 4.2, []],
      [apex.id, '2026-04-01', '10:00', 'ES', 'Fade', -7000, 4.2, ['FOMO']],
      [apex.id, '2026-03-02', '09:35', 'NQ', 'Breakout', 410.55, 4.2, []],
      [apex.id, '2026-03-02', '13:10', 'ES', 'Fade', -125.25, 2.1, ['FOMO']],
      [demo.id, '2026-03-03', '10:05', 'MNQ', 'Breakout', 220.01, 0.74, []],
      [apex.id, '2026-03-03', '14:40', 'NQ', 'Pullback', -310.75, 4.2, ['Moved stop', 'FOMO']],
      [demo.id, '2026-03-04', '09:50', 'ES', 'Pullback', -95.5, 2.1, []],
      [apex.id, '2026-03-05', '11:15', 'RTY', 'Breakout', 605.33, 2.1, []],
      [apex.id, '2026-03-05', '15:20', 'ES', 'Fade', -40.04, 2.1, ['Moved stop']],
      [demo.id, '2026-03-06', '10:20', 'YM', '', 0, 0, []],
      [apex.id, '2026-03-31', '11:00', 'NQ', 'Pullback', 150.1, 4.2, []],
    ];
    for (const [account_id, day, time, symbol, setup, pnl, commission, tags] of trades) {
      await createTrade(alice, {
        account_id,
        date: day,
        entry_time: at(day, time),
        exit_time: at(
          day,
          time.replace(/:(\d\d)$/, (_, m: string) => `:${String(Number(m) + 4).padStart(2, '0')}`),
        ),
        symbol,
        side: 'Long',
        pnl,
        commission,
        trade_type: setup || undefined,
        tags,
      });
    }
    // Bob trades in March too, with a result that would stand out in Alice's figures.
    await createTrade(bob, { date: '2026-03-02', entry_time: at('2026-03-02', '09:40'), symbol: 'NQ', side: 'Long', pnl: 9999 });
  }, 120_000);
  afterAll(() => app?.close());

  it.each([
    ['every account', ''],
    ['one account, with a range the month replaces', 'ACCOUNT&range=last-30-days'],
    ['Breakout trades', 'setup=Breakout'],
  ])('gives, for %s, the figures the other reports give for the same month and filter', async (_, rawExtra) => {
    const extra = rawExtra.replace('ACCOUNT', `account=${apex.id}`);
    const filterOnly = extra.replace(/&?range=[^&]*/, '');
    const review = conforms(monthlyReviewReport, await alice.get(`/api/reports/monthly-review?month=2026-03${extra ? `&${extra}` : ''}`));
    const overview = conforms(overviewReport, await alice.get(`/api/reports/overview?${march(filterOnly)}`));
    const calendar = conforms(calendarReport, await alice.get(`/api/reports/calendar?${march(filterOnly)}&year=2026`));
    const equity = conforms(equityReport, await alice.get(`/api/reports/equity?${march(filterOnly)}`));
    const depth = conforms(depthReport, await alice.get(`/api/reports/depth?${march(filterOnly)}`));
    const mistakes = conforms(mistakesReport, await alice.get(`/api/reports/mistakes?${march(filterOnly)}`));
    const instruments = conforms(breakdownReport, await alice.get(`/api/reports/breakdown?${march(filterOnly)}&by=instrument`));
    const setups = conforms(breakdownReport, await alice.get(`/api/reports/breakdown?${march(filterOnly)}&by=setup`));

    expect(review.basis).toEqual(overview.basis);
    expect(review.review.month).toBe('2026-03');
    expect(review.review.overview).toEqual(overview.overview);
    expect(review.review.days).toEqual(calendar.calendar.days);
    expect(review.review.equity).toEqual(equity.equity.byDay);
    expect(review.review.streaks).toEqual(depth.depth.streaks);
    expect(review.review.mistakes.tradesWithMistakes).toBe(mistakes.mistakes.tradesWithMistakes);
    expect(review.review.mistakes.rows).toEqual(mistakes.mistakes.mistakes.filter((row) => row.trades > 0));
    // The ranked rows are the Breakdowns' rows themselves: the best that made money, the worst that lost it.
    for (const [ranked, all] of [
      [review.review.instruments, instruments.breakdown.rows],
      [review.review.setups, setups.breakdown.rows],
    ] as const) {
      const winners = all.filter((row) => row.netCents > 0).sort((a, b) => b.netCents - a.netCents);
      const losers = all.filter((row) => row.netCents < 0).sort((a, b) => a.netCents - b.netCents);
      expect(ranked.top).toEqual(winners.slice(0, 3));
      expect(ranked.bottom).toEqual(losers.slice(0, 3));
    }
    // The month's days only: neither February's last trade nor April's first.
    expect(review.review.days.every((d) => d.tradeDate >= '2026-03-01' && d.tradeDate <= '2026-03-31')).toBe(true);
  });

  it('adds up the month to the cent, without the days either side or another trader’s trades', async () => {
    const { review } = conforms(monthlyReviewReport, await alice.get('/api/reports/monthly-review?month=2026-03'));
    // 410.55 - 125.25 + 220.01 - 310.75 - 95.50 + 605.33 - 40.04 + 0 + 150.10 = 814.45 net, after 21.74 of fees.
    expect(review.overview).toMatchObject({ trades: 9, netCents: 81_445, feesCents: 2_174, grossCents: 83_619 });
    expect(review.overview.bestDay).toEqual({ tradeDate: '2026-03-05', pnlCents: 56_529 });
    expect(review.overview.worstDay).toEqual({ tradeDate: '2026-03-04', pnlCents: -9_550 });
    // YM's flat day is neither among the best nor the worst.
    expect(review.instruments.top.map((r) => [r.key, r.netCents])).toEqual([
      ['RTY', 60_533],
      ['NQ', 24_990],
      ['MNQ', 22_001],
    ]);
    expect(review.instruments.bottom.map((r) => [r.key, r.netCents])).toEqual([['ES', -26_079]]);
    expect(review.mistakes.rows.map((r) => [r.tag, r.trades, r.netCents])).toEqual([
      ['FOMO', 2, -43_600],
      ['Moved stop', 2, -35_079],
    ]);
    expect(review.mistakes.tradesWithMistakes).toBe(3);
    expect(review.equity.at(-1)?.equityCents).toBe(81_445);
  });

  it('shows another trader none of the trader’s trades, even asked for the trader’s account', async () => {
    const own = conforms(monthlyReviewReport, await bob.get('/api/reports/monthly-review?month=2026-03')).review;
    expect([own.overview.trades, own.overview.netCents, own.days.map((d) => d.tradeDate)]).toEqual([1, 999_900, ['2026-03-02']]);
    const asked = conforms(monthlyReviewReport, await bob.get(`/api/reports/monthly-review?month=2026-03&account=${apex.id}`)).review;
    expect([asked.overview.trades, asked.days, asked.instruments.top, asked.mistakes.rows]).toEqual([0, [], [], []]);
    expect((await app.client().get('/api/reports/monthly-review?month=2026-03')).status).toBe(401);
  });

  it('refuses a month that is not one, naming the parameter', async () => {
    for (const month of ['2026-13', '2026-3', 'March', '']) {
      const error = conforms(apiError, await alice.get(`/api/reports/monthly-review?month=${month}`), 400);
      expect(JSON.stringify(error)).toContain('month');
    }
    conforms(apiError, await alice.get('/api/reports/monthly-review'), 400);
  });
});
