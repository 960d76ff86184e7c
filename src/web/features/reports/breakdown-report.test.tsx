import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { BreakdownReport as BreakdownAnswer } from '../../../contract/reports';
import { createReportFilter } from '../../../domain/reports/filter';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { BreakdownReport } from './breakdown-report';

const saved = vi.hoisted(() => [] as Blob[]);
vi.mock('../../lib/download', () => ({ saveBlob: (blob: Blob) => saved.push(blob) }));

const row = (key: string, trades: number, netCents: number, feesCents: number) => ({
  key,
  label: key,
  trades,
  wins: netCents > 0 ? trades : 0,
  losses: netCents < 0 ? trades : 0,
  breakEvens: 0,
  winRate: netCents > 0 ? 100 : 0,
  netCents,
  grossCents: netCents + feesCents,
  feesCents,
  grossProfitCents: Math.max(netCents, 0),
  grossLossCents: Math.min(netCents, 0),
  averageCents: Math.round(netCents / trades),
  profitFactor: netCents > 0 ? null : 0,
  expectancyCents: Math.round(netCents / trades),
  sharePercent: 50,
  r: { tradesWithRisk: 0, tradesWithoutRisk: trades, totalR: null, expectancyR: null },
});

const ANSWER = {
  basis: { computedFrom: 'Computed from 4 trades', range: { from: null, to: null } },
  breakdown: { by: 'instrument', rows: [row('NQ', 2, 15_000, 840), row('ES', 2, -6_210, 420)], total: 4, excluded: 0, tradesWithoutRisk: 4 },
} as unknown as BreakdownAnswer;

const headers = () =>
  within(screen.getByTestId('breakdown-table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent!.replace(/, sort.*$/, ''));

describe('the breakdown column chooser', () => {
  it('keeps today’s columns at first, shows gross and fees when chosen, hides what is unticked, exports the columns shown and remembers them in this browser', async () => {
    stubApi.use(http.get('/api/reports/breakdown', () => HttpResponse.json(ANSWER)));
    const first = renderWithApp(<BreakdownReport filter={createReportFilter()} by="instrument" today="2026-03-06" />);
    await screen.findByTestId('breakdown-table');
    expect(headers()).toEqual(['Instrument', 'Trades', 'Win rate', 'Net P&L', 'Average', 'Profit factor', 'Expectancy', 'Share of trades']);

    await first.user.click(screen.getByTestId('breakdown-columns-button'));
    const chooser = await screen.findByTestId('breakdown-columns');
    expect(within(chooser).getByRole('checkbox', { name: 'Fees' })).not.toBeChecked();
    await first.user.click(within(chooser).getByRole('checkbox', { name: 'Gross P&L' }));
    await first.user.click(within(chooser).getByRole('checkbox', { name: 'Fees' }));
    await first.user.click(within(chooser).getByRole('checkbox', { name: 'Average' }));
    expect(headers()).toEqual(['Instrument', 'Trades', 'Win rate', 'Gross P&L', 'Fees', 'Net P&L', 'Profit factor', 'Expectancy', 'Share of trades']);
    // NQ's row: gross 158.40, fees 8.40, net 150.00.
    const nq = within(screen.getByTestId('breakdown-table')).getAllByRole('row')[1]!;
    expect(nq).toHaveTextContent('$158.40');
    expect(nq).toHaveTextContent('$8.40');
    // The CSV has the columns shown, money as plain numbers.
    await first.user.click(screen.getByTestId('breakdown-table-csv'));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    const csv = (await saved[0]!.text()).replace(/^\ufeff/, '').split(/\r?\n/);
    expect(csv[0]).toBe('Instrument,Trades,Win rate,Gross P&L,Fees,Net P&L,Profit factor,Expectancy,Share of trades');
    expect(csv[1]).toBe('NQ,2,100,158.40,8.40,150.00,∞,75.00,50');
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.reportBreakdownColumns)!)).toEqual({ gross: true, fees: true, average: false });
    first.unmount();

    // Another breakdown opened later in the same browser shows the same columns.
    renderWithApp(<BreakdownReport filter={createReportFilter()} by="instrument" today="2026-03-06" />);
    await screen.findByTestId('breakdown-table');
    expect(headers()).toContain('Fees');
    expect(headers()).not.toContain('Average');
  });
});
