import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type ApiClient } from '../support/app';
import type { StandInOrder } from '../support/projectx-server';
import { createAccount, listAll } from './trades-support';
import { account, dayOf, KEY, MNQ, plus, roundTrip, startConnectedApp, syncNow, weekdayAgo, type ConnectedApp } from './connections-support';

/**
 * What a sync reads beyond the fills: the bracket orders that give synced trades their planned stop (and so their R,
 * labelled as from the stop order), the positions open now, and the firms a server offers, each at its own gateway.
 */
describe.each(backends())('orders, positions and firms of broker connections on %s', (backend) => {
  let ctx: ConnectedApp;
  let alice: ApiClient;
  const day = weekdayAgo(3);

  const order = (id: number, at: string, values: Partial<StandInOrder>): StandInOrder => ({
    id,
    accountId: 4001,
    contractId: MNQ.id,
    creationTimestamp: at,
    updateTimestamp: null,
    status: 3,
    type: 4,
    side: 1,
    size: 2,
    limitPrice: null,
    stopPrice: null,
    fillVolume: 0,
    filledPrice: null,
    customTag: null,
    ...values,
  });

  beforeAll(async () => {
    ctx = await startConnectedApp(backend);
    ctx.px.accounts = [account(4001, '50KTC-V2-4001', 'alice.px')];
    alice = await ctx.trader('alice');
  });
  afterAll(async () => {
    expect(ctx.answers.join('\n')).not.toContain(KEY);
    await ctx?.close();
  });

  it("gives a synced trade its bracket's stop and so its R, labelled as from the stop order; shows the open positions with size, average price and since when", async () => {
    // A long of 2 MNQ at 21,000 with its bracket: the market order, a sell stop at 20,990 placed with it (cancelled when
    // the target filled), a later stop moved to break-even. Out at 21,010: $40 gross on a $40 risk (10 points x 2 x $2).
    ctx.px.trades = roundTrip(4001, MNQ, { side: 'Long', entries: [[2, 21_000, plus(day, 0, 10)]], exits: [[2, 21_010, plus(day, 7, 30)]] });
    ctx.px.orders = [
      order(1, plus(day, 0, 9, 900), { type: 2, status: 2, side: 0, fillVolume: 2, filledPrice: 21_000 }),
      order(2, plus(day, 0, 9, 950), { stopPrice: 20_990 }),
      order(3, plus(day, 4), { stopPrice: 21_000 }),
    ];
    ctx.px.positions = [
      { id: 9, accountId: 4001, contractId: MNQ.id, creationTimestamp: plus(day, 30, 1), type: 2, size: 3, averagePrice: 21_031.75 },
    ];
    const journal = await createAccount(alice, 'Combine 4001');
    const connection = (await alice.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).body;
    expect(connection).toMatchObject({ firm: 'configured', provider_label: 'TopstepX' });
    await alice.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0].id}`, {
      account_id: journal.id,
      sync_from: dayOf(day),
    });
    const done = await syncNow(ctx, alice, connection.id);
    expect(done.last_outcome).toMatchObject({ status: 'ok', added: 1, warnings: [] });
    expect(ctx.px.count('Order/search')).toBeGreaterThan(0);

    const [trade] = await listAll(alice, `account=${journal.id}`);
    expect(trade).toMatchObject({ stop_price: '20990.00000000', planned_risk: { amount: '40.00', source: 'stop' } });
    // Net of $1.48 fees: $38.52 over $40.
    expect(trade!.r_multiple).toBeCloseTo(0.963, 3);
    const chart = (await alice.get(`/api/market/trades/${trade!.id}/chart`)).body;
    expect(chart.stop).toEqual({ price: '20990', source: 'stop-order' });
    // The trader's own change of the stop is the trader's, no longer the order's.
    expect((await alice.patch(`/api/trades/${trade!.id}`, { stop_price: '20985' })).status).toBe(200);
    expect((await alice.get(`/api/market/trades/${trade!.id}/chart`)).body.stop).toEqual({ price: '20985', source: 'trade' });

    expect(done.accounts[0]).toMatchObject({
      open_positions: [{ contract: 'MNQM5', side: 'Short', size: '3', average_price: '21031.75', since: plus(day, 30, 1) }],
      positions_read_at: expect.any(String),
    });
    // Flat again at the next sync: no position open.
    ctx.px.positions = [];
    expect((await syncNow(ctx, alice, connection.id)).accounts[0].open_positions).toEqual([]);
  });

  it('offers the dated list of firms and the configured gateway; a firm the server does not offer is refused', async () => {
    const list = (await alice.get('/api/connections')).body;
    const [provider] = list.providers;
    expect(provider.firms[0]).toEqual({ id: 'configured', label: 'TopstepX', host: new URL(ctx.px.url).host });
    expect(provider.firms.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining(['topstepx', 'thefuturesdesk']));
    expect(provider.firms.find((f: { id: string }) => f.id === 'topstepx')).toMatchObject({ label: 'TopstepX', host: 'api.topstepx.com' });
    expect(provider.firms_checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const refused = await alice.post('/api/connections/test', { firm: 'nowhere', user_name: 'alice.px', api_key: KEY });
    expect([refused.status, refused.body.error]).toEqual([400, "firm: this server does not offer 'nowhere'"]);
  });
});
