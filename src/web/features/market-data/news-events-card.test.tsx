import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ImportedNewsEvents } from '../../../contract/economic-calendar';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { NewsEventsCard } from './news-events-card';

const FILE = JSON.stringify([{ title: 'CPI m/m', country: 'USD', date: '2024-06-12T08:30:00-04:00', impact: 'High' }]);

let stored: ImportedNewsEvents;
let sent: Array<{ type: string | null; body: string }>;

beforeEach(() => {
  stored = { count: 0, from: null, to: null };
  sent = [];
  stubApi.use(
    http.get('/api/preferences', () => HttpResponse.json({ time_zone: 'America/New_York' })),
    http.get('/api/economic-calendar/events', () => HttpResponse.json(stored)),
  );
});

const fileInput = () => screen.getByLabelText('Import economic calendar events');

describe("Market Data's past economic calendar events", () => {
  it('sends the file as it is, says what it added, and shows the events imported', async () => {
    stubApi.use(
      http.post('/api/economic-calendar/events', async ({ request }) => {
        sent.push({ type: request.headers.get('content-type'), body: await request.text() });
        stored = { count: 2, from: '2024-06-12T12:30:00.000Z', to: '2024-07-05T12:30:00.000Z' };
        return HttpResponse.json({ read: 3, kept: 2, added: 2, from: stored.from, to: stored.to });
      }),
    );
    const { user } = renderWithApp(<NewsEventsCard />);
    expect(await screen.findByTestId('news-imported')).toHaveTextContent('No imported events yet.');
    expect(screen.queryByTestId('delete-news')).not.toBeInTheDocument();
    await user.upload(fileInput(), new File([FILE], 'june.json', { type: 'application/json' }));
    expect(await screen.findByText('Added 2 high-impact USD events (Jun 12, 2024 – Jul 5, 2024).')).toBeInTheDocument();
    expect(sent).toEqual([{ type: 'application/json', body: FILE }]);
    await waitFor(() =>
      expect(screen.getByTestId('news-imported')).toHaveTextContent('2 imported high-impact USD events, Jun 12, 2024 – Jul 5, 2024.'),
    );
  });

  it("shows the server's refusal, which names the item and field", async () => {
    stubApi.use(
      http.post('/api/economic-calendar/events', () =>
        HttpResponse.json({ error: 'Row 3: date: must be a date and time with its offset, as 2025-03-05T08:30:00-05:00' }, { status: 400 }),
      ),
    );
    const { user } = renderWithApp(<NewsEventsCard />);
    await screen.findByTestId('news-imported');
    await user.upload(fileInput(), new File(['title,country,date\nCPI,USD,2024-06-12'], 'june.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Failed to import events')).toBeInTheDocument();
    expect(screen.getByText('Row 3: date: must be a date and time with its offset, as 2025-03-05T08:30:00-05:00')).toBeInTheDocument();
  });

  it('says when a file adds nothing new', async () => {
    stubApi.use(
      http.post('/api/economic-calendar/events', () =>
        HttpResponse.json({ read: 4, kept: 1, added: 0, from: '2024-06-12T12:30:00.000Z', to: '2024-06-12T12:30:00.000Z' }),
      ),
    );
    const { user } = renderWithApp(<NewsEventsCard />);
    await screen.findByTestId('news-imported');
    await user.upload(fileInput(), new File([FILE], 'june.json', { type: 'application/json' }));
    expect(await screen.findByText('Nothing new: the file’s 1 high-impact USD event was stored already (Jun 12, 2024).')).toBeInTheDocument();
  });

  it('deletes the imported events after confirming', async () => {
    stored = { count: 2, from: '2024-06-12T12:30:00.000Z', to: '2024-07-05T12:30:00.000Z' };
    let deleted = 0;
    stubApi.use(
      http.delete('/api/economic-calendar/events', () => {
        deleted += 1;
        stored = { count: 0, from: null, to: null };
        return HttpResponse.json({ deleted: 2 });
      }),
    );
    const { user } = renderWithApp(<NewsEventsCard />);
    await user.click(await screen.findByTestId('delete-news'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete imported events' });
    expect(dialog).toHaveTextContent('Delete your 2 imported events? The news filter keeps the calendar feed’s events.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted 2 imported events')).toBeInTheDocument();
    expect(deleted).toBe(1);
    await waitFor(() => expect(screen.getByTestId('news-imported')).toHaveTextContent('No imported events yet.'));
  });
});
