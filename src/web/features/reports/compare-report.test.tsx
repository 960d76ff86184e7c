import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CompareReport as CompareAnswer } from '../../../contract/report-compare';
import { computeEquity, computeOverview, computeROverview, createReportFilter, createTradeSet } from '../../../domain/reports';
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
});
