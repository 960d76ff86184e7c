import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { getTodayInZone } from '../../../../domain/dates';
import type { TradeStats } from '../../../shared/api';
import { PREFERENCES } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { stubApi } from '../../../test/stub-api';
import { DashboardContext, type DashboardContextValue } from '../dashboard-context';
import { HeaderStats } from './header-stats';

beforeEach(() => {
  stubApi.use(
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/profile', () => HttpResponse.json({})),
  );
});

const day = (date: string, pnlCents: number) => ({
  date,
  trades: 1,
  wins: pnlCents > 0 ? 1 : 0,
  losses: pnlCents < 0 ? 1 : 0,
  breakEvens: 0,
  pnlCents,
  grossProfitCents: Math.max(pnlCents, 0),
  grossLossCents: Math.min(pnlCents, 0),
});

function renderCard(now: Date, timeZone: string, byDay: ReturnType<typeof day>[] = []) {
  const noop = () => {};
  const value: DashboardContextValue = {
    account: 'all',
    accountReady: true,
    setAccount: noop,
    timeZone,
    today: getTodayInZone(now, timeZone),
    now,
    // Only the days matter to the Monthly PnL card.
    stats: byDay.length ? ({ by_day: byDay } as unknown as TradeStats) : undefined,
    statsLoading: false,
    openDay: noop,
    openAccounts: noop,
    openProfile: noop,
    hideWidget: noop,
  };
  return renderWithApp(
    <DashboardContext.Provider value={value}>
      <HeaderStats />
    </DashboardContext.Provider>,
  );
}

describe("Monthly PnL's days", () => {
  // 02:30 UTC on April 6th is still April 5th in New York, already April 6th in Tokyo.
  const now = new Date('2026-04-06T02:30:00Z');

  it("says which 30 days it covers, ending today in the trader's zone (not the browser's)", async () => {
    renderCard(now, 'America/New_York');
    expect(await screen.findByTestId('monthly-pnl-range')).toHaveTextContent('Mar 7 – Apr 5');
    // The amount is the calendar month's, which the card names apart from the trend's days.
    expect(screen.getByTestId('monthly-pnl-month')).toHaveTextContent('April 2026');
  });

  it("in another zone, that zone's 30 days", async () => {
    renderCard(now, 'Asia/Tokyo');
    expect(await screen.findByTestId('monthly-pnl-range')).toHaveTextContent('Mar 8 – Apr 6');
  });

  it("an evening session's trades dated tomorrow stretch the days to that day", async () => {
    renderCard(now, 'America/New_York', [day('2026-04-05', 1000), day('2026-04-06', -250)]);
    expect(await screen.findByTestId('monthly-pnl-range')).toHaveTextContent('Mar 7 – Apr 6');
  });
});
