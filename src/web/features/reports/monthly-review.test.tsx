import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MonthlyReviewReport } from '../../../contract/monthly-review';
import { createReportFilter } from '../../../domain/reports/filter';
import { computeMonthlyReview } from '../../../domain/reports/monthly-review';
import { createTradeSet, type ReportTrade } from '../../../domain/reports/report-trade';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { MonthlyReview } from './monthly-review';

let seq = 0;
const trade = (tradeDate: string, symbol: string, setup: string, pnlCents: number, tags: string[] = []): ReportTrade => ({
  id: `t${++seq}`,
  tradeDate,
  accountId: 'a',
  symbol,
  contract: null,
  side: 'Long',
  setup,
  session: 'AM',
  tags,
  status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  pnlCents,
  commissionCents: 250,
  entryMs: null,
  exitMs: null,
  quantity: 1,
});

/** A review as the server makes it: the domain's figures of four March trades. */
function answer(trades: ReportTrade[]): MonthlyReviewReport {
  const set = createTradeSet(trades);
  return {
    basis: { computedFrom: `Computed from ${trades.length} trades`, currency: 'USD', currencyNote: null },
    review: computeMonthlyReview(set, {
      month: '2026-03',
      timeZone: 'America/New_York',
      accountName: () => undefined,
      risk: set.columns.ownRisk,
      markets: null,
      openingBalanceCents: null,
      mistakeTags: ['FOMO'],
      playbooks: [],
    }),
  } as unknown as MonthlyReviewReport;
}

const MARCH = answer([
  trade('2026-03-02', 'NQ', 'Breakout', 41_050),
  trade('2026-03-02', 'ES', 'Fade', -12_525, ['FOMO']),
  trade('2026-03-04', 'NQ', 'Breakout', 2_000),
  trade('2026-03-05', 'ES', 'Fade', -8_000),
]);

afterEach(() => vi.restoreAllMocks());

describe('MonthlyReview', () => {
  it('lays out the month: its figures, its trading days, the best and worst instruments and setups, streaks and mistakes', async () => {
    const asked: URL[] = [];
    stubApi.use(
      http.get('/api/reports/monthly-review', ({ request }) => {
        asked.push(new URL(request.url));
        return HttpResponse.json(MARCH);
      }),
    );
    renderWithApp(
      <MonthlyReview filter={createReportFilter({ range: 'last-30-days', symbol: ['NQ', 'ES'] })} month="2026-03" onMonthChange={() => {}} />,
    );
    await screen.findByTestId('monthly-review');
    expect(screen.getByRole('heading', { name: 'Monthly review: March 2026' })).toBeInTheDocument();
    const figure = (key: string) => screen.getByTestId(`review-figure-${key}`);
    expect(within(figure('netCents')).getByTestId('figure-value')).toHaveTextContent('$225.25');
    expect(within(figure('feesCents')).getByTestId('figure-value')).toHaveTextContent('$10.00');
    expect(within(figure('trades')).getByTestId('figure-value')).toHaveTextContent('4');
    expect(within(figure('winRate')).getByTestId('figure-value')).toHaveTextContent('50.0%');
    expect(figure('bestDayCents')).toHaveTextContent('$285.25');
    expect(figure('bestDayCents')).toHaveTextContent('Mar 2, 2026');
    expect(figure('worstDayCents')).toHaveTextContent('-$80.00');
    // Three trading days in their cells, with their amounts.
    expect(screen.getAllByTestId('review-day').map((cell) => cell.textContent)).toEqual(['2$285.25', '4$20.00', '5-$80.00']);
    const instruments = screen.getByTestId('review-instruments');
    expect(within(instruments).getByText('Made the most').closest('tbody')).toHaveTextContent('NQ2100.0%$430.50');
    expect(within(instruments).getByText('Lost the most').closest('tbody')).toHaveTextContent('ES20.0%-$205.25');
    expect(screen.getByTestId('review-setups')).toHaveTextContent('Breakout');
    expect(screen.getByTestId('review-playbooks')).toHaveTextContent('None made or lost money this month.');
    expect(screen.getByTestId('review-streaks')).toHaveTextContent(
      "Longest winning streak2 daysLongest losing streak1 dayStreak at the month's end1 day losing",
    );
    expect(screen.getByTestId('review-mistakes')).toHaveTextContent('FOMO1-$125.25');
    // The month takes the place of the range; the other filters go with the request.
    expect(asked[0]!.searchParams.get('month')).toBe('2026-03');
    expect(asked[0]!.searchParams.get('range')).toBeNull();
    expect(asked[0]!.searchParams.getAll('symbol')).toEqual(['NQ', 'ES']);
  });

  it('prints with the browser, and steps to the month before and after', async () => {
    stubApi.use(http.get('/api/reports/monthly-review', () => HttpResponse.json(MARCH)));
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const onMonthChange = vi.fn();
    const { user } = renderWithApp(<MonthlyReview filter={createReportFilter()} month="2026-01" onMonthChange={onMonthChange} />);
    await screen.findByTestId('monthly-review');
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(onMonthChange.mock.calls).toEqual([['2025-12'], ['2026-02']]);
  });

  it('says so when the month has no trades, and shows no mistakes section without mistakes', async () => {
    stubApi.use(http.get('/api/reports/monthly-review', () => HttpResponse.json(answer([]))));
    renderWithApp(<MonthlyReview filter={createReportFilter()} month="2026-03" onMonthChange={() => {}} />);
    expect(await screen.findByTestId('report-empty')).toHaveTextContent('No trades in March 2026 match these filters.');
    expect(screen.queryByTestId('review-mistakes')).not.toBeInTheDocument();
  });
});
