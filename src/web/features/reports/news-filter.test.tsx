import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createReportFilter, type ReportFilter } from '../../../domain/reports/filter';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { FilterBar } from './filter-bar';

const OPTIONS = { symbol: ['NQ'], contract: [], side: ['Long', 'Short'], setup: [], session: ['AM'], tag: [], size: [1], trades: 2 };

beforeEach(() => {
  stubApi.use(
    http.get('/api/reports/options', () => HttpResponse.json(OPTIONS)),
    http.get('/api/accounts', () => HttpResponse.json([])),
    http.get('/api/mistake-tags', () => HttpResponse.json({ tags: [] })),
    http.get('/api/playbooks', () => HttpResponse.json([])),
  );
});

function newsStatus(feed: boolean, events: number) {
  stubApi.use(http.get('/api/economic-calendar/news', () => HttpResponse.json({ feed, events })));
}

async function openMore(filter: ReportFilter, onChange = vi.fn()) {
  const { user } = renderWithApp(<FilterBar filter={filter} onChange={onChange} />);
  await user.click(await screen.findByTestId('filter-more'));
  const select = await screen.findByRole('combobox', { name: 'High-impact USD news' });
  return { user, onChange, select };
}

describe('the news filter in the filter bar', () => {
  it('narrows to trades within the chosen minutes of news once events are stored', async () => {
    newsStatus(true, 12);
    const first = await openMore(createReportFilter());
    await waitFor(() => expect(first.select).toBeEnabled());
    expect(screen.queryByTestId('filter-news-reason')).not.toBeInTheDocument();
    await first.user.click(first.select);
    await first.user.click(await screen.findByRole('option', { name: 'Within 15 min' }));
    expect(first.onChange).toHaveBeenLastCalledWith({ ...createReportFilter(), news: 15 });
  });

  it('with a window chosen, switches to away from news, shows a chip, and the chip takes both keys off', async () => {
    newsStatus(true, 12);
    const filter = createReportFilter({ news: 30 });
    const { user, onChange } = await openMore(filter);
    await user.click(screen.getByRole('radio', { name: 'Away from news' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...filter, newsMode: 'away' });
    expect(screen.getByTestId('active-filter-news')).toHaveTextContent('Within 30 min of high-impact USD news');
    await user.click(screen.getByRole('button', { name: 'Remove filter Within 30 min of high-impact USD news' }));
    expect(onChange).toHaveBeenLastCalledWith(createReportFilter());
  });

  it('is disabled and says why when no feed is set up', async () => {
    newsStatus(false, 0);
    const { select } = await openMore(createReportFilter());
    expect(await screen.findByTestId('filter-news-reason')).toHaveTextContent(
      'Needs an economic calendar feed (ECONOMIC_CALENDAR_URL) or events imported on Market Data',
    );
    expect(select).toBeDisabled();
    expect(select).toHaveAccessibleDescription('Needs an economic calendar feed (ECONOMIC_CALENDAR_URL) or events imported on Market Data');
  });

  it('works without a feed once the trader imported past events', async () => {
    newsStatus(false, 40);
    const { select } = await openMore(createReportFilter());
    await waitFor(() => expect(select).toBeEnabled());
    expect(screen.queryByTestId('filter-news-reason')).not.toBeInTheDocument();
  });

  it('is disabled and says why when the feed has given no high-impact USD event yet', async () => {
    newsStatus(true, 0);
    const { select } = await openMore(createReportFilter());
    expect(await screen.findByTestId('filter-news-reason')).toHaveTextContent('No high-impact USD events stored yet');
    expect(select).toBeDisabled();
  });

  it('stays changeable when a link already holds the key without events, so the trader can take it off', async () => {
    newsStatus(true, 0);
    const { select } = await openMore(createReportFilter({ news: 5 }));
    await screen.findByTestId('filter-news-reason');
    expect(select).toBeEnabled();
  });
});
