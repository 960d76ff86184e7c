import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CompareReport as CompareAnswer } from '../../../contract/report-compare';
import {
  computeBreakdown,
  computeEquity,
  computeEquityR,
  computeOverview,
  computeROverview,
  createReportFilter,
  createTradeSet,
  type ReportTrade,
} from '../../../domain/reports';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { CompareReport } from './compare-report';

const empty = createTradeSet([]);
/** A set's answer as the server gives it; only its trade count and net P&L told apart. */
const set = (trades: number, netCents: number) => ({
  basis: { description: `set of ${trades}`, trades },
  overview: { ...computeOverview(empty), trades, netCents },
  openingBalanceCents: null,
  r: computeROverview(empty, new Float64Array(0)),
  equity: computeEquity(empty),
  equityR: computeEquityR(empty, new Float64Array(0)),
});
/** A sortable column's header, as a screen reader names it. */
const header = (name: string) => ({ name: `${name}, sort` });
const ANSWERS = [set(10, 1_000), set(20, -2_000), set(30, 3_000), set(40, 4_000)];

describe('CompareReport', () => {
  it('adds sets up to four, asks the server for each, shows one column per set and removes a set again', async () => {
    const asked: string[] = [];
    stubApi.use(
      http.get('/api/reports/compare', ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push([...query.keys()].join(','));
        const count = [...query.keys()].length;
        return HttpResponse.json({ sets: ANSWERS.slice(0, count) } as unknown as CompareAnswer);
      }),
      http.get('/api/reports/options', () => HttpResponse.json({})),
      http.get('/api/accounts', () => HttpResponse.json([])),
      http.get('/api/mistake-tags', () => HttpResponse.json({ tags: [] })),
      http.get('/api/saved-views', () => HttpResponse.json([])),
      http.get('/api/playbooks', () => HttpResponse.json([])),
    );
    const { user } = renderWithApp(<CompareReport filter={createReportFilter()} today="2026-03-05" />);
    const tradesRow = async () =>
      within((await screen.findAllByTestId('compare-table-row')).find((row) => within(row).queryByRole('rowheader', { name: 'Trades' }))!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);

    // Two sets: A, B and B − A, as before.
    expect(await tradesRow()).toEqual(['10', '20', '+10']);
    await user.click(screen.getByTestId('compare-add-set'));
    await screen.findByTestId('compare-filters-c');
    await screen.findByRole('columnheader', header('C'));
    expect(await tradesRow()).toEqual(['10', '20', '30']);
    await user.click(screen.getByTestId('compare-add-set'));
    await screen.findByRole('columnheader', header('D'));
    expect(await tradesRow()).toEqual(['10', '20', '30', '40']);
    // Four is the most: no button for a fifth.
    expect(screen.queryByTestId('compare-add-set')).not.toBeInTheDocument();
    expect(asked).toContain('a,b,c,d');

    // Removing B: C and D move up a letter, three sets are asked for.
    await user.click(screen.getByTestId('compare-remove-b'));
    await screen.findByRole('columnheader', header('C'));
    expect(screen.queryByRole('columnheader', header('D'))).not.toBeInTheDocument();
    expect(screen.queryByTestId('compare-filters-d')).not.toBeInTheDocument();
    expect(asked.at(-1)).toBe('a,b,c');
  });

  /** The page's other requests, answered with nothing of their own. */
  const others = (views: unknown[] = []) => [
    http.get('/api/reports/options', () => HttpResponse.json({})),
    http.get('/api/accounts', () => HttpResponse.json([])),
    http.get('/api/mistake-tags', () => HttpResponse.json({ tags: [] })),
    http.get('/api/saved-views', () => HttpResponse.json(views)),
    http.get('/api/playbooks', () => HttpResponse.json([])),
  ];

  it('loads a saved view into a set: its filter becomes the set’s in the request, and the set takes the view’s name', async () => {
    const asked: URLSearchParams[] = [];
    const view = { id: crypto.randomUUID(), name: 'London shorts', filter: 'side=Short&session=London', created_at: '2026-03-01T00:00:00.000Z' };
    stubApi.use(
      http.get('/api/reports/compare', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({ sets: ANSWERS.slice(0, 2) } as unknown as CompareAnswer);
      }),
      ...others([{ ...view, updated_at: view.created_at }]),
    );
    const { user } = renderWithApp(<CompareReport filter={createReportFilter({ symbol: ['NQ'] })} today="2026-03-05" />);
    await screen.findByRole('columnheader', header('B'));
    expect(asked.at(-1)!.get('b')).toBe('');

    await user.click(await screen.findByRole('combobox', { name: 'Load saved view into B' }));
    await user.click(await screen.findByRole('option', { name: 'London shorts' }));
    // B is now the view's filter, A still the page's own.
    await waitFor(() => expect(asked.at(-1)!.get('b')).toBe(view.filter));
    expect(asked.at(-1)!.get('a')).toBe('symbol=NQ');
    expect(await within(screen.getByTestId('compare-filters-b')).findByText('B: London shorts')).toBeInTheDocument();
    // The picker shows the view the set has.
    expect(screen.getByRole('combobox', { name: 'Load saved view into B' })).toHaveValue('London shorts');
  });

  it('draws the curves in R on the switch, from each set’s R curve of the server, and says which trades have no planned risk', async () => {
    let seq = 0;
    const trade = (pnlCents: number, riskCents: number | null, at: string): ReportTrade => ({
      id: `t${++seq}`,
      tradeDate: '2026-03-02',
      accountId: 'a',
      symbol: 'NQ',
      contract: null,
      side: 'Long',
      setup: '',
      session: 'AM',
      tags: [],
      status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
      pnlCents,
      commissionCents: 0,
      entryMs: Date.parse(`2026-03-02T${at}:00Z`),
      exitMs: null,
      quantity: 1,
      riskCents,
    });
    // A: +2R, -0.5R and +300.00 without a planned risk; B: -1R and a trade of +50.00 without one.
    const sets = [
      createTradeSet([trade(40_000, 20_000, '14:35'), trade(-10_000, 20_000, '15:00'), trade(30_000, null, '16:00')]),
      createTradeSet([trade(-20_000, 20_000, '14:40'), trade(5_000, null, '15:10')]),
    ];
    const answer = sets.map((tradeSet) => ({
      basis: { description: 'a set', trades: tradeSet.rows.length },
      overview: computeOverview(tradeSet),
      openingBalanceCents: null,
      r: computeROverview(tradeSet, tradeSet.columns.ownRisk),
      equity: computeEquity(tradeSet),
      equityR: computeEquityR(tradeSet, tradeSet.columns.ownRisk),
      breakdown: computeBreakdown(tradeSet, 'hour', { timeZone: 'UTC' }),
    }));
    const asked: URLSearchParams[] = [];
    stubApi.use(
      http.get('/api/reports/compare', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({ sets: answer } as unknown as CompareAnswer);
      }),
      ...others(),
    );
    const { user } = renderWithApp(<CompareReport filter={createReportFilter()} today="2026-03-05" />);
    const finals = async () =>
      (await within(await screen.findByTestId('compare-equity-table')).findAllByRole('row'))
        .slice(1)
        .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

    // In dollars: every trade on the curve.
    await waitFor(async () =>
      expect(await finals()).toEqual([
        ['A', '3', '$600.00'],
        ['B', '2', '-$150.00'],
      ]),
    );
    expect(screen.queryByTestId('compare-r-left-out')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'R' }));
    // In R: the server's R curve of each set, its trades without a planned risk left out (not drawn as 0R) and said.
    await waitFor(async () =>
      expect(await finals()).toEqual([
        ['A', '2', '+1.50R'],
        ['B', '1', '-1.00R'],
      ]),
    );
    expect(screen.getByTestId('compare-r-left-out')).toHaveTextContent(
      'Left out of the curves in R: A: 1 of 3 trades has no planned risk; B: 1 of 2 trades has no planned risk.',
    );

    // The breakdowns side by side: each set's own rows, in R its total R.
    expect(asked.every((q) => !q.has('by'))).toBe(true);
    await user.click(screen.getByRole('combobox', { name: 'Breakdown by' }));
    await user.click(await screen.findByRole('option', { name: 'Hour of entry' }));
    await waitFor(() => expect(asked.at(-1)!.get('by')).toBe('hour'));
    const table = await screen.findByTestId('compare-breakdown-table');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(cells).toEqual([
      ['14:00-15:00', '+2.00R', '1', '100.0%', '-1.00R', '1', '0.0%'],
      ['15:00-16:00', '-0.50R', '1', '0.0%', '—', '1', '100.0%'],
      ['16:00-17:00', '—', '1', '100.0%', '—', '0', '—'],
    ]);
  });
});
