import http from 'node:http';
import { freePort } from '../../src/server/free-port';

/**
 * A stand-in for a public weekly economic calendar on a loopback port. It answers `body` as JSON, or `status` instead
 * (the feed being down), or holds the answer `delayMs` (a feed that hangs). `requests` counts what it was asked, so
 * tests see the server's cache at work.
 */
export interface CalendarFeedServer {
  url: string;
  requests: number;
  status: number;
  body: string;
  delayMs: number;
  close(): Promise<void>;
}

export async function startCalendarFeedServer(events: unknown[] = []): Promise<CalendarFeedServer> {
  const port = await freePort('127.0.0.1');
  const state: CalendarFeedServer = {
    url: `http://127.0.0.1:${port}/ff_calendar_thisweek.json`,
    requests: 0,
    status: 200,
    body: JSON.stringify(events),
    delayMs: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    state.requests += 1;
    const answer = () => {
      if (res.destroyed) return;
      if (state.status !== 200) {
        res.writeHead(state.status, { 'content-type': 'text/plain' }).end('feed unavailable');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(state.body);
    };
    if (state.delayMs > 0) setTimeout(answer, state.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return state;
}

/** A week as the public feeds publish it: New York offsets, impacts as words, empty forecasts for speeches. */
export const SAMPLE_FEED = [
  { title: 'CPI m/m', country: 'USD', date: '2026-12-09T08:30:00-05:00', impact: 'High', forecast: '0.3%', previous: '0.2%' },
  { title: 'German ZEW Economic Sentiment', country: 'EUR', date: '2026-12-08T05:00:00-05:00', impact: 'Medium', forecast: '10.2', previous: '9.8' },
  { title: 'Bank Holiday', country: 'JPY', date: '2026-12-07T00:00:00-05:00', impact: 'Holiday', forecast: '', previous: '' },
  { title: 'Crude Oil Inventories', country: 'USD', date: '2026-12-09T10:30:00-05:00', impact: 'Low', forecast: '-1.1M', previous: '2.3M' },
  { title: 'FOMC Member Speaks', country: 'USD', date: '2026-12-10T13:00:00-05:00', impact: 'Non-Economic' },
];
