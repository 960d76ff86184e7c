import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Trade } from '../../shared/api';
import { makeAccount, makeTrade, PREFERENCES, TRADE_PREFERENCES } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { TradeFormModal } from './trade-form-modal';

const ACCOUNTS = [makeAccount({ id: 'acc-1', name: 'Apex 50k', is_default: true }), makeAccount({ id: 'acc-2', name: 'Topstep' })];

/** The bodies the dialog sent, in order. */
let sent: { method: string; url: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  stubApi.use(
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/trade-preferences', () => HttpResponse.json(TRADE_PREFERENCES)),
    http.get('/api/playbooks', () => HttpResponse.json([])),
    http.get('/api/risk-defaults', () => HttpResponse.json([])),
    http.post('/api/trades', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', url: request.url, body });
      return HttpResponse.json(makeTrade({ id: '22222222-2222-4222-8222-222222222222', pnl: String(body.pnl) }), { status: 201 });
    }),
  );
});

function renderAdd() {
  const onClose = vi.fn();
  const view = renderWithApp(<TradeFormModal mode="add" opened onClose={onClose} accounts={ACCOUNTS} initialAccountId="acc-1" />);
  return { ...view, onClose, dialog: () => screen.getByRole('dialog', { name: 'Add New Trade' }) };
}

describe('Add New Trade', () => {
  it('with the session cleared, Add Trade says which field is missing and sends nothing', async () => {
    const { user, onClose } = renderAdd();
    await user.click(await screen.findByLabelText('Clear session'));
    await user.click(screen.getByRole('button', { name: 'Add Trade' }));
    expect(await screen.findByText('Session is required')).toBeInTheDocument();
    expect(screen.getByText('Please fill in all required fields.')).toBeInTheDocument();
    expect(sent).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends the net P&L, the result it gives, the commission and the account, then closes', async () => {
    const { user, onClose, client } = renderAdd();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const pnl = await screen.findByLabelText('PnL (before commission)');
    await user.clear(pnl);
    await user.type(pnl, '125');
    const commission = screen.getByLabelText('Commission');
    await user.clear(commission);
    await user.type(commission, '4.28');
    expect(screen.getByTestId('trade-net-preview')).toHaveTextContent('Net PnL $120.72 after $4.28 commission · saved as Win');
    await user.click(screen.getByLabelText('Notes'));
    await user.paste('Waited for the retest.');
    await user.click(screen.getByRole('button', { name: 'Add Trade' }));

    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      symbol: 'NQ',
      period: 'AM',
      trade_type: 'A/A+',
      status: 'Win',
      pnl: '120.72',
      commission: '4.28',
      account_id: 'acc-1',
      notes: 'Waited for the retest.',
      entry_time: null,
      exit_time: null,
    });
    expect(await screen.findByText('Trade added successfully')).toBeInTheDocument();
    // The new trade shows in every list and statistic.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['trades'] });
  });

  it('a Loss chosen over a typed gain turns it negative, and the net line follows', async () => {
    const { user } = renderAdd();
    const pnl = await screen.findByLabelText('PnL (before commission)');
    await user.clear(pnl);
    await user.type(pnl, '80');
    await user.click(within(screen.getByTestId('trade-result-input')).getByRole('button', { name: 'Loss' }));
    expect(pnl).toHaveValue('-80');
    expect(screen.getByTestId('trade-net-preview')).toHaveTextContent('Net PnL -$80.00 · saved as Loss');
    expect(screen.getByTestId('trade-result-input')).toHaveAttribute('data-result', 'Loss');
  });

  it('the prices of an NQ long make its P&L until the trader types one', async () => {
    const { user } = renderAdd();
    await user.click(await screen.findByRole('radio', { name: 'Long' }));
    await user.type(screen.getByLabelText('Quantity'), '2');
    await user.type(screen.getByLabelText('Entry price'), '18250.25');
    await user.type(screen.getByLabelText('Exit price'), '18271.50');
    const pnl = screen.getByLabelText('PnL (before commission)');
    expect(pnl).toHaveValue('850');
    await user.clear(pnl);
    await user.type(pnl, '800');
    expect(screen.getByText('From the prices: $850.00')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Exit price'), '5');
    expect(pnl).toHaveValue('800');
  });

  it('a refusal for what was typed keeps the dialog open with the server’s words', async () => {
    stubApi.use(http.post('/api/trades', () => HttpResponse.json({ error: 'symbol must be at most 50 characters' }, { status: 400 })));
    const { user, onClose } = renderAdd();
    await user.click(await screen.findByRole('button', { name: 'Add Trade' }));
    expect(await screen.findByText('symbol must be at most 50 characters')).toBeInTheDocument();
    expect(screen.getByText('Failed to add trade')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('All Trades saves the trade without an account, and says so', async () => {
    const { user } = renderAdd();
    await user.click(await screen.findByRole('combobox', { name: 'Account' }));
    await user.click(await screen.findByRole('option', { name: 'All Trades' }));
    expect(screen.getByText('Saved without an account: it shows under Unassigned Trades.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Trade' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toMatchObject({ account_id: null });
  });
});

describe('Edit Trade', () => {
  it('shows the P&L before commission, and Save Changes sends the same net P&L back and no times', async () => {
    const trade = makeTrade({ pnl: '120.72', commission: '4.28', entry_time: '2025-03-03T14:35:12.000Z', exit_time: '2025-03-03T14:50:40.000Z' });
    const patched: unknown[] = [];
    stubApi.use(
      http.patch(`/api/trades/${trade.id}`, async ({ request }) => {
        const body = (await request.json()) as Partial<Trade>;
        patched.push(body);
        return HttpResponse.json({ ...trade, ...body });
      }),
    );
    const onClose = vi.fn();
    const { user } = renderWithApp(<TradeFormModal mode="edit" opened onClose={onClose} trade={trade} />);
    const pnl = await screen.findByLabelText('PnL (before commission)');
    expect(pnl).toHaveValue('125');
    expect(screen.queryByLabelText('Commission')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patched).toHaveLength(1);
    expect(patched[0]).toMatchObject({ pnl: '120.72', status: 'Win', symbol: 'NQ' });
    expect(patched[0]).not.toHaveProperty('entry_time');
    expect(await screen.findByText('Trade updated successfully')).toBeInTheDocument();
  });
});

describe('the zone named beside the entry time', () => {
  // New York: 09:35 in June is 13:35 UTC (EDT), in January 14:35 UTC (EST); today's date must not decide it.
  it.each([
    ['June', '2025-06-16', '2025-06-16T13:35:00.000Z', 'EDT'],
    ['January', '2026-01-16', '2026-01-16T14:35:00.000Z', 'EST'],
  ])('editing a %s trade names the zone of its own time', async (_month, date, entry, zone) => {
    const trade = makeTrade({ date, trade_date: entry, entry_time: entry, exit_time: null });
    renderWithApp(<TradeFormModal mode="edit" opened onClose={vi.fn()} trade={trade} />);
    const time = await screen.findByLabelText('Entry time');
    expect(time).toHaveValue('09:35');
    expect(screen.getByText(zone)).toBeInTheDocument();
    expect(screen.queryByText(zone === 'EDT' ? 'EST' : 'EDT')).not.toBeInTheDocument();
  });
});
