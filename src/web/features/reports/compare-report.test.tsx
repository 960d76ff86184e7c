import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
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
import { mentorReportsSource, ReportsApiBase } from './reports-source';

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

/** The page's other requests, answered with nothing of their own. */
const others = (views: unknown[] = []) => [
  http.get('/api/reports/options', () => HttpResponse.json({})),
  http.get('/api/accounts', () => HttpResponse.json([])),
  http.get('/api/mistake-tags', () => HttpResponse.json({ tags: [] })),
  http.get('/api/saved-views', () => HttpResponse.json(views)),
  http.get('/api/playbooks', () => HttpResponse.json([])),
];

/** The page at an address of its own (sets B to D live in the URL): drawn once the router is there. */
function At({ search, children }: { search: string; children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const [arrived, setArrived] = useState(false);
  const there = params.toString() === new URLSearchParams(search).toString();
  useEffect(() => {
    if (arrived) return;
    if (there) setArrived(true);
    else setParams(new URLSearchParams(search));
  }, [arrived, there, search, setParams]);
  return arrived ? children : null;
}

/** The cells of the figures table's Trades row: one per set (and B − A of two). */
const tradesRow = async () =>
  within((await screen.findAllByTestId('compare-table-row')).find((row) => within(row).queryByRole('rowheader', { name: 'Trades' }))!)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

/** Answers a set by its filter (`a`, the page asks for each set on its own) and records each request's query. */
const answerSets = (answers: Record<string, unknown>, asked: URLSearchParams[], base = '/api/reports') =>
  http.get(`${base}/compare`, ({ request }) => {
    const query = new URL(request.url).searchParams;
    asked.push(query);
    const answer = answers[query.get('a') ?? ''];
    return answer ? HttpResponse.json({ sets: [answer] } as unknown as CompareAnswer) : HttpResponse.json({ error: 'no such set' }, { status: 500 });
  });

describe('CompareReport', () => {
  it('adds sets up to four, asks the server for each set on its own, shows one column per set and removes a set again', async () => {
    const asked: URLSearchParams[] = [];
    stubApi.use(answerSets({ 'symbol=NQ': ANSWERS[0], 'side=Short': ANSWERS[1], '': ANSWERS[2] }, asked), ...others());
    const { user } = renderWithApp(
      <At search="b.side=Short">
        <CompareReport filter={createReportFilter({ symbol: ['NQ'] })} today="2026-03-05" />
      </At>,
    );

    // Two sets: A, B and B − A, as before; one request each, with one set in it.
    expect(await tradesRow()).toEqual(['10', '20', '+10']);
    expect(asked.map((q) => q.toString()).sort()).toEqual(['a=side%3DShort', 'a=symbol%3DNQ']);
    await user.click(screen.getByTestId('compare-add-set'));
    await screen.findByTestId('compare-filters-c');
    await screen.findByRole('columnheader', header('C'));
    expect(await tradesRow()).toEqual(['10', '20', '30']);
    // Only the new set was asked for.
    expect(asked.map((q) => q.get('a'))).toEqual(expect.arrayContaining(['symbol=NQ', 'side=Short', '']));
    expect(asked).toHaveLength(3);
    await user.click(screen.getByTestId('compare-add-set'));
    await screen.findByRole('columnheader', header('D'));
    // D has C's filter (none yet): the same figures, from the answer already there.
    expect(await tradesRow()).toEqual(['10', '20', '30', '30']);
    expect(asked).toHaveLength(3);
    // Four is the most: no button for a fifth.
    expect(screen.queryByTestId('compare-add-set')).not.toBeInTheDocument();

    // Removing B: C and D move up a letter, their figures kept, nothing asked again.
    await user.click(screen.getByTestId('compare-remove-b'));
    await waitFor(() => expect(screen.queryByRole('columnheader', header('D'))).not.toBeInTheDocument());
    await screen.findByRole('columnheader', header('C'));
    expect(screen.queryByTestId('compare-filters-d')).not.toBeInTheDocument();
    expect(await tradesRow()).toEqual(['10', '30', '30']);
    expect(asked.map((q) => q.toString())).toHaveLength(3);
  });

  it('asks for only the set whose filter changed, the other sets’ figures staying on screen while it loads', async () => {
    const asked: URLSearchParams[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const answers: Record<string, unknown> = { 'symbol=NQ': ANSWERS[0], 'side=Short': ANSWERS[1], 'symbol=ES': ANSWERS[2], 'symbol=MNQ': ANSWERS[3] };
    stubApi.use(
      // B without its side filter: answered only once the test lets it.
      http.get('/api/reports/compare', async ({ request }) => {
        if (new URL(request.url).searchParams.get('a') !== '') return undefined;
        asked.push(new URL(request.url).searchParams);
        await held;
        return HttpResponse.json({ sets: [set(50, 5_000)] } as unknown as CompareAnswer);
      }),
      answerSets(answers, asked),
      ...others(),
    );
    const { user } = renderWithApp(
      <At search="b.side=Short&c.symbol=ES&d.symbol=MNQ">
        <CompareReport filter={createReportFilter({ symbol: ['NQ'] })} today="2026-03-05" />
      </At>,
    );
    await screen.findByRole('columnheader', header('D'));
    expect(await tradesRow()).toEqual(['10', '20', '30', '40']);
    expect(asked).toHaveLength(4);

    // B's side filter removed from B's own bar: one request, for B alone.
    await user.click(within(screen.getByTestId('compare-filters-b')).getByRole('button', { name: 'Remove filter Side: Short' }));
    await waitFor(() => expect(asked).toHaveLength(5));
    expect(asked[4]!.toString()).toBe('a=');
    // While it loads, every set's figures stay, B's marked as updating.
    expect(await screen.findByTestId('compare-set-updating-b')).toBeInTheDocument();
    expect(screen.queryByTestId('compare-set-updating-a')).not.toBeInTheDocument();
    expect(await tradesRow()).toEqual(['10', '20', '30', '40']);

    release();
    await waitFor(async () => expect(await tradesRow()).toEqual(['10', '50', '30', '40']));
    expect(screen.queryByTestId('compare-set-updating-b')).not.toBeInTheDocument();
    expect(asked).toHaveLength(5);
  });

  it('shows a set’s error in that set only, the other sets’ figures, curves and breakdowns drawn', async () => {
    const asked: URLSearchParams[] = [];
    // C's filter has no answer: its request fails.
    stubApi.use(answerSets({ 'symbol=NQ': ANSWERS[0], 'side=Short': ANSWERS[1] }, asked), ...others());
    renderWithApp(
      <At search="b.side=Short&c.symbol=ES">
        <CompareReport filter={createReportFilter({ symbol: ['NQ'] })} today="2026-03-05" />
      </At>,
    );
    const error = await screen.findByTestId('compare-set-error-c');
    expect(error).toHaveTextContent('C could not be loaded');
    expect(screen.queryByTestId('compare-set-error-a')).not.toBeInTheDocument();
    expect(screen.queryByTestId('compare-set-error-b')).not.toBeInTheDocument();
    // A and B's figures, one column each; no column for C.
    await waitFor(async () => expect(await tradesRow()).toEqual(['10', '20']));
    expect(screen.getByRole('columnheader', header('A'))).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', header('C'))).not.toBeInTheDocument();
    expect(screen.getByTestId('compare-set-a')).toHaveTextContent('A: set of 10 (10 trades)');
    expect(screen.getByTestId('compare-set-b')).toHaveTextContent('B: set of 20 (20 trades)');
    expect(screen.getByTestId('compare-equity')).toBeInTheDocument();
    expect(screen.queryByTestId('report-error')).not.toBeInTheDocument();
  });

  it('asks a mentor’s routes for each set on a mentor’s page', async () => {
    const base = '/api/mentor/trader-1/reports';
    const asked: URLSearchParams[] = [];
    stubApi.use(
      answerSets({ 'side=Long': ANSWERS[0], 'side=Short': ANSWERS[1] }, asked, base),
      http.get(`${base}/options`, () => HttpResponse.json({})),
    );
    renderWithApp(
      <ReportsApiBase.Provider value={mentorReportsSource('trader-1', [])}>
        <At search="b.side=Short">
          <CompareReport filter={createReportFilter({ side: ['Long'] })} today="2026-03-05" />
        </At>
      </ReportsApiBase.Provider>,
    );
    expect(await tradesRow()).toEqual(['10', '20', '+10']);
    expect(asked.map((q) => q.get('a')).sort()).toEqual(['side=Long', 'side=Short']);
  });

  it('loads a saved view into a set: its filter becomes the set’s in the request, and the set takes the view’s name', async () => {
    const asked: URLSearchParams[] = [];
    const view = { id: crypto.randomUUID(), name: 'London shorts', filter: 'side=Short&session=London', created_at: '2026-03-01T00:00:00.000Z' };
    stubApi.use(
      answerSets({ 'symbol=NQ': ANSWERS[0], '': ANSWERS[1], [view.filter]: ANSWERS[2] }, asked),
      ...others([{ ...view, updated_at: view.created_at }]),
    );
    const { user } = renderWithApp(<CompareReport filter={createReportFilter({ symbol: ['NQ'] })} today="2026-03-05" />);
    await screen.findByRole('columnheader', header('B'));
    expect(asked.map((q) => q.get('a')).sort()).toEqual(['', 'symbol=NQ']);

    await user.click(await screen.findByRole('combobox', { name: 'Load saved view into B' }));
    await user.click(await screen.findByRole('option', { name: 'London shorts' }));
    // B is now the view's filter, asked for alone; A is still the page's own and not asked again.
    await waitFor(() => expect(asked.at(-1)!.get('a')).toBe(view.filter));
    expect(asked).toHaveLength(3);
    expect(await tradesRow()).toEqual(['10', '30', '+20']);
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
    stubApi.use(answerSets({ 'symbol=NQ': answer[0], '': answer[1] }, asked), ...others());
    const { user } = renderWithApp(<CompareReport filter={createReportFilter({ symbol: ['NQ'] })} today="2026-03-05" />);
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
    // Each set asked for again with its breakdown, on its own.
    await waitFor(() =>
      expect(
        asked
          .filter((q) => q.get('by') === 'hour')
          .map((q) => q.get('a'))
          .sort(),
      ).toEqual(['', 'symbol=NQ']),
    );
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
