import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { ConnectForm } from './connect-form';
import { connectFormReducer, connectionInputOf, initialConnectForm } from './connect-form-state';

const PROVIDERS = [
  { id: 'topstepx' as const, label: 'TopstepX' },
  { id: 'binance' as const, label: 'Binance' },
  { id: 'hyperliquid' as const, label: 'Hyperliquid' },
];

let sent: Array<{ url: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  stubApi.use(
    http.post('/api/connections/test', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ url: request.url, body });
      if (body.provider === 'binance') {
        return HttpResponse.json({
          ok: true,
          provider: 'binance',
          key_warning: 'This key may also trade: Edgebook only ever reads with it.',
          accounts: [{ external_id: 'USDT', name: 'USD-M futures · USDT', balance: '5123.46', can_trade: true, active: true, currency: 'USDT' }],
        });
      }
      return HttpResponse.json({ error: 'refused', code: 'broker-credentials' }, { status: 400 });
    }),
  );
});

describe('the connect form', () => {
  it('asks each provider for its own fields: a key and secret for Binance, a wallet for Hyperliquid; what was typed for one is not sent to another', () => {
    let state = initialConnectForm('binance');
    state = connectFormReducer(state, { type: 'type', field: 'apiKey', value: ' key-1 ' });
    expect(connectionInputOf(state)).toEqual({ missing: ['apiSecret'] });
    state = connectFormReducer(state, { type: 'type', field: 'apiSecret', value: 'secret-1' });
    expect(connectionInputOf(state)).toEqual({ input: { provider: 'binance', api_key: 'key-1', api_secret: 'secret-1' } });
    state = connectFormReducer(state, { type: 'choose-provider', provider: 'hyperliquid' });
    expect([state.apiKey, state.apiSecret]).toEqual(['', '']);
    expect(connectionInputOf(state)).toEqual({ missing: ['wallet'] });
    // Connected: the secrets leave the form.
    const connected = connectFormReducer({ ...initialConnectForm('binance'), apiKey: 'k', apiSecret: 's' }, { type: 'connected' });
    expect([connected.apiKey, connected.apiSecret]).toEqual(['', '']);
  });

  it("sends the ProjectX firm chosen (none for the server's own gateway), and forgets the last test when the firm changes", () => {
    let state = initialConnectForm('topstepx');
    state = connectFormReducer(state, { type: 'type', field: 'userName', value: 'alice' });
    state = connectFormReducer(state, { type: 'type', field: 'apiKey', value: 'key-1' });
    expect(connectionInputOf(state)).toEqual({ input: { provider: 'topstepx', user_name: 'alice', api_key: 'key-1' } });
    state = connectFormReducer(state, { type: 'tested', tested: { ok: true, provider: 'topstepx', accounts: [], key_warning: null } });
    state = connectFormReducer(state, { type: 'choose-firm', firm: 'alphafutures' });
    expect(state.tested).toBeNull();
    expect(connectionInputOf(state)).toEqual({ input: { provider: 'topstepx', firm: 'alphafutures', user_name: 'alice', api_key: 'key-1' } });
  });

  it('tests a Binance key: its USDT account with its balance in USDT (no $), and the warning that the key may trade', async () => {
    const { user } = renderWithApp(<ConnectForm providers={PROVIDERS} />);
    await user.click(screen.getByRole('radio', { name: 'Binance' }));
    expect(screen.queryByLabelText('Binance user name')).toBeNull();
    await user.click(screen.getByTestId('connect-test'));
    expect(await screen.findByText('Enter the secret key')).toBeTruthy();
    expect(sent).toEqual([]);
    await user.type(screen.getByLabelText('API key'), 'the-key');
    await user.type(screen.getByLabelText('Secret key'), 'the-secret');
    await user.click(screen.getByTestId('connect-test'));
    await waitFor(() => expect(screen.getByTestId('connect-tested').textContent).toContain('Binance accepted the key: 1 account.'));
    expect(screen.getByTestId('connect-tested').textContent).toContain('USD-M futures · USDT · 5,123.46 USDT');
    expect(screen.getByTestId('connect-tested').textContent).not.toContain('$');
    expect(screen.getByTestId('connect-key-warning').textContent).toContain('This key may also trade');
    expect(sent.map((s) => s.body)).toEqual([{ provider: 'binance', api_key: 'the-key', api_secret: 'the-secret' }]);
  });

  it('connects Hyperliquid with a wallet address alone', async () => {
    const { user } = renderWithApp(<ConnectForm providers={PROVIDERS} />);
    await user.click(screen.getByRole('radio', { name: 'Hyperliquid' }));
    expect(screen.queryByLabelText('API key')).toBeNull();
    await user.type(screen.getByLabelText('Wallet address'), '0x31ca8395cf837de08b24da3f660e77761dfb974b');
    await user.click(screen.getByTestId('connect-test'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({ provider: 'hyperliquid', wallet_address: '0x31ca8395cf837de08b24da3f660e77761dfb974b' });
    expect(await screen.findByTestId('connect-error')).toBeTruthy();
  });
});
