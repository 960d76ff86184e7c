import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JournalDayDetail } from '../../shared/api';
import { makeAccount, PREFERENCES } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { JournalPage } from './journal-page';

const MAIN = makeAccount({ id: 'bbbbbbbb-0000-4000-8000-000000000001', name: 'Main', is_default: true });
const COPY = makeAccount({ id: 'bbbbbbbb-0000-4000-8000-000000000002', name: 'Copy' });

const trade = (id: string, account: { id: string; name: string } | null, pnl: string): JournalDayDetail['trades'][number] => ({
  id,
  symbol: 'NQ',
  pnl,
  status: 'Win',
  period: 'AM',
  trade_type: 'Breakout',
  contract: null,
  entry_time: null,
  exit_time: null,
  quantity: null,
  entry_price: null,
  exit_price: null,
  gross_pnl: null,
  commission: '0.00',
  account_id: account?.id ?? null,
  account_name: account?.name ?? null,
});

/** The one trade copied into both accounts, and one without an account. */
const TRADES = [
  trade('aaaaaaaa-0000-4000-8000-000000000001', MAIN, '100.00'),
  trade('aaaaaaaa-0000-4000-8000-000000000002', COPY, '100.00'),
  trade('aaaaaaaa-0000-4000-8000-000000000003', null, '5.00'),
];

/** The account each request for the days and for the day asked for. */
let asked: Array<{ path: string; account: string | null }>;

beforeEach(() => {
  window.sessionStorage.clear();
  asked = [];
  stubApi.use(
    http.get('/api/accounts', () => HttpResponse.json([MAIN, COPY])),
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/journal/days', ({ request }) => {
      const account = new URL(request.url).searchParams.get('account');
      asked.push({ path: 'days', account });
      const trades = TRADES.filter((t) => account === 'all' || t.account_id === account);
      const pnl = trades.reduce((sum, t) => sum + Number(t.pnl), 0).toFixed(2);
      return HttpResponse.json({ days: [{ date: '2025-04-01', trades: trades.length, pnl, has_note: false }] });
    }),
    http.get('/api/journal/:date', ({ request, params }) => {
      const account = new URL(request.url).searchParams.get('account');
      asked.push({ path: String(params.date), account });
      const trades = TRADES.filter((t) => account === 'all' || t.account_id === account);
      const pnl = trades.reduce((sum, t) => sum + Number(t.pnl), 0).toFixed(2);
      return HttpResponse.json({ date: String(params.date), pnl, trades, note: null } satisfies JournalDayDetail);
    }),
  );
});

describe('Daily Journal account picker', () => {
  it("opens on the default account and asks the server for that account's days and trades, without account names", async () => {
    renderWithApp(<JournalPage />);
    const rows = await screen.findAllByTestId('journal-trade');
    expect(rows).toHaveLength(1);
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveValue('Main ★');
    expect(screen.queryByTestId('journal-trade-account')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('journal-day')).getByText('1 trade')).toBeInTheDocument();
    // Nothing was asked for all accounts first: the picker waited for the accounts list.
    expect(asked).toEqual([
      { path: 'days', account: MAIN.id },
      { path: '2025-04-01', account: MAIN.id },
    ]);
  });

  it('All Trades lists the copied trade twice, each row labelled with its account, and the one without as Unassigned', async () => {
    const { user } = renderWithApp(<JournalPage />);
    await screen.findAllByTestId('journal-trade');
    await user.click(screen.getByRole('combobox', { name: 'Account' }));
    await user.click(await screen.findByRole('option', { name: 'All Trades' }));
    await waitFor(() => expect(screen.getAllByTestId('journal-trade')).toHaveLength(3));
    expect(screen.getAllByTestId('journal-trade-account').map((cell) => cell.textContent)).toEqual(['Main', 'Copy', 'Unassigned']);
    expect(screen.getByRole('columnheader', { name: 'Trade Account' })).toBeInTheDocument();
    expect(within(screen.getByTestId('journal-day-summary')).getByText('$205.00')).toBeInTheDocument();
    expect(asked.at(-1)).toEqual({ path: '2025-04-01', account: 'all' });
  });

  it('another account shows its trades only, and the pick is kept when the page opens again', async () => {
    const first = renderWithApp(<JournalPage />);
    await screen.findAllByTestId('journal-trade');
    await first.user.click(screen.getByRole('combobox', { name: 'Account' }));
    await first.user.click(await screen.findByRole('option', { name: 'Copy' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ path: '2025-04-01', account: COPY.id }));
    expect(await screen.findAllByTestId('journal-trade')).toHaveLength(1);
    first.unmount();
    asked = [];
    renderWithApp(<JournalPage />);
    await screen.findAllByTestId('journal-trade');
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveValue('Copy');
    expect(asked[0]).toEqual({ path: 'days', account: COPY.id });
  });
});
