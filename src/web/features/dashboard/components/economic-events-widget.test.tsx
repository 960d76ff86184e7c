import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { EconomicCalendarEvent, EconomicCalendarResponse } from '../../../../contract/economic-calendar';
import { renderWithApp } from '../../../test/render';
import { stubApi } from '../../../test/stub-api';
import { DashboardContext, type DashboardContextValue } from '../dashboard-context';
import { EconomicEventsWidget } from './economic-events-widget';

const event = (title: string, at: string, impact: EconomicCalendarEvent['impact'], country = 'USD'): EconomicCalendarEvent => ({
  id: `${title}-${at}`,
  title,
  country,
  at,
  impact,
  forecast: impact === 'high' ? '0.3%' : '',
  previous: impact === 'high' ? '0.2%' : '',
});

const FEED: EconomicCalendarEvent[] = [
  event('CPI m/m', '2026-12-09T13:30:00.000Z', 'high'),
  event('German ZEW Economic Sentiment', '2026-12-09T10:00:00.000Z', 'high', 'EUR'),
  // 23:30 in New York's evening is already Thursday on a Berlin clock.
  event('Federal Budget Balance', '2026-12-09T23:30:00.000Z', 'medium'),
  event('Bank Holiday', '2026-12-11T05:00:00.000Z', 'holiday'),
  // The next week's Monday: not this week.
  event('ISM Manufacturing PMI', '2026-12-14T15:00:00.000Z', 'high'),
];

function renderWidget(answer: () => Response) {
  stubApi.use(http.get('/api/economic-calendar', answer));
  const context = { today: '2026-12-09', timeZone: 'Europe/Berlin' } as DashboardContextValue;
  return renderWithApp(
    <DashboardContext.Provider value={context}>
      <EconomicEventsWidget widgetId="forex-news" />
    </DashboardContext.Provider>,
  );
}

const feedAnswer = (stale: boolean): EconomicCalendarResponse => ({ source: 'feed', events: FEED, fetched_at: '2026-12-09T09:00:00.000Z', stale });

describe('EconomicEventsWidget', () => {
  it("shows the feed's USD events of this week on the trader's clock, with their impact, and no mock label", async () => {
    const { user } = renderWidget(() => HttpResponse.json(feedAnswer(false)));
    await screen.findByText('CPI m/m');
    const rows = screen.getAllByTestId('economic-event');
    expect(rows.map((r) => [within(r).getByText(/^\d\d:\d\d$/).textContent, r.getAttribute('data-impact')])).toEqual([
      ['14:30', 'high'],
      ['00:30', 'medium'],
      ['06:00', 'holiday'],
    ]);
    expect(rows[0]).toHaveTextContent('Forecast 0.3% · Previous 0.2% · high impact');
    expect(rows[1]).toHaveTextContent('Forecast - · Previous -');
    expect(screen.queryByText('German ZEW Economic Sentiment')).not.toBeInTheDocument();
    expect(screen.queryByText('ISM Manufacturing PMI')).not.toBeInTheDocument();
    expect(screen.getByText('Thu, Dec 10')).toBeInTheDocument();
    expect(screen.queryByTestId('mock-data-badge')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stale-data-badge')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Today' }));
    expect(screen.getAllByTestId('economic-event').map((r) => within(r).getByText(/^\d\d:\d\d$/).textContent)).toEqual(['14:30']);
  });

  it('marks a week the server could not refresh', async () => {
    renderWidget(() => HttpResponse.json(feedAnswer(true)));
    expect(await screen.findByTestId('stale-data-badge')).toHaveTextContent('Not updated');
    expect(screen.getAllByTestId('economic-event')).toHaveLength(3);
  });

  it('shows the sample week labelled as mock data when the server reads no feed', async () => {
    renderWidget(() => HttpResponse.json({ source: 'sample' }));
    await screen.findAllByTestId('economic-event');
    expect(screen.getByTestId('mock-data-badge')).toHaveTextContent('Mock data');
    expect(screen.getAllByTestId('economic-event')).toHaveLength(13);
  });

  it("shows the calendar's error words when the feed cannot be read", async () => {
    renderWidget(() =>
      HttpResponse.json({ error: 'Failed to fetch economic calendar data', code: 'economic-calendar-unavailable' }, { status: 502 }),
    );
    expect(await screen.findAllByText('Failed to fetch economic calendar data')).not.toHaveLength(0);
    expect(screen.queryAllByTestId('economic-event')).toHaveLength(0);
  });
});
