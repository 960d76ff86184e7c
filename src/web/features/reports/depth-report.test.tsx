import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DepthReportAnswer } from '../../../contract/reports';
import { createReportFilter } from '../../../domain/reports/filter';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { DepthReport } from './depth-report';

const bucket = (fromMinute: number, label: string, trades: number, netCents: number) => ({
  fromMinute,
  label,
  trades,
  wins: netCents > 0 ? trades : 0,
  losses: netCents < 0 ? trades : 0,
  netCents,
});

const ANSWER = {
  basis: { computedFrom: 'Computed from 3 trades' },
  depth: {
    weeks: [
      { weekStart: '2026-04-27', weekEnd: '2026-05-03', tradingDays: 2, trades: 2, netCents: 5_950 },
      { weekStart: '2026-05-04', weekEnd: '2026-05-10', tradingDays: 1, trades: 1, netCents: 1_025 },
    ],
    buckets15: {
      buckets: [bucket(570, '09:30-09:45', 1, 10_000), bucket(585, '09:45-10:00', 1, -4_050), bucket(600, '10:00-10:15', 1, 1_025)],
      excluded: 0,
    },
    buckets30: { buckets: [bucket(570, '09:30-10:00', 2, 5_950), bucket(600, '10:00-10:30', 1, 1_025)], excluded: 1 },
    drawdown: {
      maxDrawdownCents: 4_050,
      currentDrawdownCents: 0,
      longestUnderwaterDays: 7,
      currentUnderwaterDays: 0,
      recoveryFactor: null,
      netCents: 6_975,
    },
    drawdownR: { maxDrawdownR: 1.5, currentDrawdownR: 0, tradesWithRisk: 2, tradesWithoutRisk: 1 },
    drawdownPercent: { startingBalanceCents: null, maxDrawdownPercent: null, currentDrawdownPercent: null },
    accounts: [
      {
        key: 'a',
        label: 'Apex 50K',
        trades: 2,
        maxDrawdownCents: 4_050,
        currentDrawdownCents: 0,
        longestUnderwaterDays: 7,
        currentUnderwaterDays: 0,
        recoveryFactor: 1.5,
        netCents: 6_075,
        startingBalanceCents: 5_000_000,
        maxDrawdownPercent: 0.1,
        currentDrawdownPercent: 0,
        r: { maxDrawdownR: 1.5, currentDrawdownR: 0, tradesWithRisk: 2, tradesWithoutRisk: 0 },
      },
      {
        key: 'unassigned',
        label: 'Unassigned',
        trades: 1,
        maxDrawdownCents: 0,
        currentDrawdownCents: 0,
        longestUnderwaterDays: 0,
        currentUnderwaterDays: 0,
        recoveryFactor: null,
        netCents: 900,
        startingBalanceCents: null,
        maxDrawdownPercent: null,
        currentDrawdownPercent: null,
        r: { maxDrawdownR: null, currentDrawdownR: null, tradesWithRisk: 0, tradesWithoutRisk: 1 },
      },
    ],
    streaks: { longestWinningDays: 2, longestLosingDays: 1, current: { kind: 'winning', days: 2 } },
    ratios: { sortino: null, sqn: 1.0541, sqnSample: 3, kelly: 0.4286 },
  },
} as unknown as DepthReportAnswer;

describe('DepthReport', () => {
  it('shows the figures, a ratio with no value as not defined, the weeks newest first and the chosen bucket size', async () => {
    stubApi.use(http.get('/api/reports/depth', () => HttpResponse.json(ANSWER)));
    const { user } = renderWithApp(<DepthReport filter={createReportFilter()} />);
    expect(await screen.findByTestId('depth-underwater')).toHaveTextContent('7 days');
    expect(screen.getByTestId('depth-sortino')).toHaveTextContent('Not defined');
    expect(screen.getByTestId('depth-recovery')).toHaveTextContent('Not defined');
    expect(screen.getByTestId('depth-sqn')).toHaveTextContent('1.05');
    expect(screen.getByTestId('depth-sqn')).toHaveTextContent('from 3 trades');
    expect(screen.getByTestId('depth-kelly')).toHaveTextContent('42.9%');
    expect(screen.getByTestId('depth-current-streak')).toHaveTextContent('2 days winning');
    expect(screen.queryByText(/Infinity|NaN/)).not.toBeInTheDocument();
    const weeks = screen.getAllByTestId('depth-week-row');
    expect(within(weeks[0]!).getByRole('rowheader')).toHaveTextContent('May 4, 2026 to May 10');
    expect(screen.getAllByTestId('depth-time-row').map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['09:30-10:00', '10:00-10:30']);
    expect(screen.getByTestId('depth-times-excluded')).toHaveTextContent('1 trade without an entry time is left out.');
    await user.click(screen.getByText('15 min'));
    expect(screen.getAllByTestId('depth-time-row')).toHaveLength(3);
  });

  it('shows the drawdown in R, a share of no starting balance as a dash, and a row per account', async () => {
    stubApi.use(http.get('/api/reports/depth', () => HttpResponse.json(ANSWER)));
    renderWithApp(<DepthReport filter={createReportFilter()} />);
    expect(await screen.findByTestId('depth-drawdown-r')).toHaveTextContent('-1.50R');
    expect(screen.getByTestId('depth-drawdown-r')).toHaveTextContent('1 trade without a planned risk left out');
    expect(screen.getByTestId('depth-max-drawdown')).toHaveTextContent('— of the starting balance');
    const rows = screen.getAllByTestId('depth-account-row');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Apex 50K', 'Unassigned']);
    expect(rows[0]).toHaveTextContent('0.1%');
    expect(rows[0]).toHaveTextContent('7 days');
    // Trades without an account have no starting balance: a dash, not 0%.
    const cells = within(rows[1]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells[2]).toBe('—');
    expect(cells).not.toContain('0%');
  });
});
