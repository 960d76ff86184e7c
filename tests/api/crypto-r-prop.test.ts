import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { importFile } from './imports-support';
import { createAccount, listAll, money } from './trades-support';

/**
 * A crypto perpetual account's trades carry R and prop rules as a futures account's do, in the account's own currency
 * (USDT here): R from a stop price (the price distance times the quantity, a perpetual's point being one unit of the
 * quote currency) or from a risk amount, and a prop rule set's balance and limits in that currency. Figures of a USD
 * account and a USDT account are never added into one.
 */
const EXPORT_HEADER = 'Date(UTC),Symbol,Side,Price,Quantity,Amount,Fee,Fee Coin,Realized Profit,Quote Asset';

describe.each(backends())('R and prop rules on a crypto account on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = app.client();
    expect((await alice.signUp(uniqueEmail('crypto-r'))).status).toBe(200);
  });
  afterAll(() => app?.close());

  it("takes R from a stop price and from a risk amount in the account's currency, and never sums it with a USD account", async () => {
    const usdt = await createAccount(alice, 'Binance', { currency: 'USDT' });
    // A long of 0.010 BTC from 60,000 to 60,500 (5 USDT gross), and a short of 0.5 ETH from 3,000 to 3,020 (-10 USDT).
    const file = [
      EXPORT_HEADER,
      '2026-03-04 16:00:00,ETHUSDT,BUY,3020,0.5,1510,0.302,USDT,-10,USDT',
      '2026-03-04 15:00:00,ETHUSDT,SELL,3000,0.5,1500,0.3,USDT,0,USDT',
      '2026-03-03 15:00:00,BTCUSDT,SELL,60500,0.010,605,0.242,USDT,5,USDT',
      '2026-03-03 14:00:00,BTCUSDT,BUY,60000,0.010,600,0.24,USDT,0,USDT',
    ].join('\n');
    const imported = await importFile(alice, { account_id: usdt.id }, file);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.imported).toBe(2);
    const trades = await listAll(alice, `account=${usdt.id}`);
    const btc = trades.find((t) => t.symbol.includes('BTC'))!;
    const eth = trades.find((t) => t.symbol.includes('ETH'))!;
    expect([btc.side, eth.side]).toEqual(['Long', 'Short']);

    // A stop 500 below the entry on 0.010 BTC risks 5.00 USDT; 12.50 USDT is the ETH trade's risk amount.
    const stopped = await alice.patch(`/api/trades/${btc.id}`, { stop_price: '59500' });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.planned_risk).toEqual({ amount: '5.00', source: 'stop' });
    const amounted = await alice.patch(`/api/trades/${eth.id}`, { risk_amount: '12.50' });
    expect(amounted.status, JSON.stringify(amounted.body)).toBe(200);
    expect(amounted.body.planned_risk).toEqual({ amount: '12.50', source: 'amount' });

    const toCents = (value: string) => Math.round(Number(value) * 100);
    const [btcNet, ethNet] = [toCents(btc.pnl), toCents(eth.pnl)];
    const overview = await alice.get(`/api/reports/overview?account=${usdt.id}`);
    expect(overview.status, JSON.stringify(overview.body)).toBe(200);
    expect(overview.body.basis.currency).toBe('USDT');
    expect(overview.body.overview.netCents).toBe(btcNet + ethNet);
    expect(overview.body.r.tradesWithRisk).toBe(2);
    expect(overview.body.r.totalR).toBeCloseTo(Math.round((btcNet / 500 + ethNet / 1250) * 100) / 100, 10);

    // A USD futures account beside it: all accounts' figures are the main currency's only, and say what was left out.
    const usd = await createAccount(alice, 'Futures', { is_default: true });
    expect((await alice.post(`/api/accounts/${usd.id}/default`, {})).status).toBeLessThan(300);
    const made = await alice.post('/api/trades', { account_id: usd.id, date: '2026-03-03', period: 'AM', symbol: 'MNQ', side: 'Long', pnl: '40.00' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const all = await alice.get('/api/reports/overview');
    expect(all.body.basis.currency).toBe('USD');
    expect(all.body.overview.netCents).toBe(4000);
    expect(all.body.basis.currencyNote).toContain('Binance');
  });

  it("evaluates a prop rule set on a USDT account in USDT: its balance, profit and loss room from the account's trades", async () => {
    const account = await createAccount(alice, 'Hyper challenge', { currency: 'USDT', starting_balance: '1000' });
    const file = [
      EXPORT_HEADER,
      '2026-03-05 15:00:00,BTCUSDT,SELL,59000,0.010,590,0.236,USDT,-10,USDT',
      '2026-03-05 14:00:00,BTCUSDT,BUY,60000,0.010,600,0.24,USDT,0,USDT',
    ].join('\n');
    expect((await importFile(alice, { account_id: account.id }, file)).status).toBe(200);
    const [trade] = await listAll(alice, `account=${account.id}`);
    const net = Math.round(Number(trade!.pnl) * 100);
    expect(net).toBeLessThan(-1000);
    // A static maximum loss of 10 USDT: this one trade breaks it.
    const rules = await alice.json('PUT', `/api/prop/accounts/${account.id}/rules`, {
      rules: { profitTargetCents: 10_000, maxLoss: { amountCents: 1_000, trailing: 'static' } },
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const status = await alice.get('/api/prop/status');
    const line = (status.body.accounts as Array<{ account: { id: string }; balance_cents: number; profit_cents: number; outcome: string }>).find(
      (a) => a.account.id === account.id,
    )!;
    expect(line.balance_cents).toBe(100_000 + net);
    expect(line.profit_cents).toBe(net);
    expect(line.outcome).toBe('broken');
  });
  it('writes every prop amount of a USDT account in USDT, never with a dollar sign: its status, page, mentor screen and share link', async () => {
    const account = await createAccount(alice, 'Perp eval', { currency: 'USDT', starting_balance: '1000' });
    const file = [
      EXPORT_HEADER,
      '2026-03-06 15:00:00,BTCUSDT,SELL,59000,0.010,590,0.236,USDT,-10,USDT',
      '2026-03-06 14:00:00,BTCUSDT,BUY,60000,0.010,600,0.24,USDT,0,USDT',
    ].join('\n');
    expect((await importFile(alice, { account_id: account.id }, file)).status).toBe(200);
    const [trade] = await listAll(alice, `account=${account.id}`);
    const net = Math.round(Number(trade!.pnl) * 100);
    // A target of 100 USDT and a static maximum loss of 50 USDT: the threshold is 950, the balance about 990.
    const put = await alice.json('PUT', `/api/prop/accounts/${account.id}/rules`, {
      rules: { profitTargetCents: 10_000, maxLoss: { amountCents: 5_000, trailing: 'static' } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const room = money(100_000 + net - 95_000);
    const line = (await alice.get('/api/prop/status')).body.accounts.find((a: { account: { id: string } }) => a.account.id === account.id);
    expect(line.account.currency).toBe('USDT');
    expect(line.headline).toBe(`Max loss: ${room} USDT left`);
    expect(line.rules.map((r: { detail: string }) => r.detail)).toEqual([
      `${money(10_000 - net)} USDT to the target of 100.00 USDT`,
      `${room} USDT above the maximum loss threshold of 950.00 USDT`,
    ]);
    expect(JSON.stringify(line)).not.toContain('$');
    const page = await alice.get(`/api/prop/accounts/${account.id}`);
    expect(page.status).toBe(200);
    expect(page.body.account.currency).toBe('USDT');
    expect(JSON.stringify(page.body.status)).not.toContain('$');

    // The mentor's prop screen reads the same status.
    const mentor = app.client();
    const mentorEmail = uniqueEmail('crypto-mentor');
    expect((await mentor.signUp(mentorEmail)).status).toBe(200);
    const grant = await alice.post('/api/mentor-grants', { email: mentorEmail, account_ids: [account.id] });
    const accepted = await mentor.post('/api/mentor/accept', { token: new URL(grant.body.url).hash.slice(1) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const seen = await mentor.get(`/api/mentor/${accepted.body.trader_id}/prop`);
    expect(seen.body.accounts.map((a: { headline: string; account: { currency: string } }) => [a.account.currency, a.headline])).toEqual([
      ['USDT', `Max loss: ${room} USDT left`],
    ]);

    // A share link's prop status: the balance and profit in USDT too.
    const link = await alice.post('/api/share-links', {
      kind: 'prop',
      target: account.id,
      expires: 'day',
      hide_amounts: false,
      hide_accounts: false,
      include_notes: false,
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const shared = await (await fetch(`${app.url}${new URL(link.body.url).pathname}`)).text();
    expect(shared).toContain(`${money(100_000 + net)} USDT`);
    expect(shared).toContain(`${money(net)} USDT`);
    expect(shared).not.toContain(`$${money(100_000 + net)}`);
  });
});
