import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createTrade, newTrader } from './trades-support';
import { createNote } from './notes-support';

/**
 * /trade/{id} over HTTP: every stored field, the previous and
 * next trade in the trader's order, linked notes and attachments, and a 404 for an unknown or another trader's id.
 */
describe.each(backends())('trade details API on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = await newTrader(app, 'alice');
  });
  afterAll(() => app?.close());

  it('returns every stored field of an imported trade, with its linked notes and attachments', async () => {
    const account = (await alice.post('/api/accounts', { name: 'Apex 50k' })).body;
    const imported = await alice.post('/api/trades/import', {
      account_id: account.id,
      trades: [
        {
          id: 'orig-1',
          trade_date: '2025-03-03T12:00:00Z',
          symbol: 'MNQ',
          side: 'Long',
          contract: 'MNQH5',
          quantity: '3',
          entry_time: '2025-03-03T14:35:00Z',
          exit_time: '2025-03-03T14:52:10Z',
          entry_price: '21050.25',
          exit_price: '21061.75',
          gross_pnl: '69.00',
          commission: '2.22',
          pnl: '66.78',
          period: 'AM',
          trade_type: 'Breakout',
          tags: ['A+', 'NQ'],
          notes: 'Clean break of IB high',
          link: 'https://www.tradingview.com/x/abc/',
        },
      ],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const [trade] = (await alice.get('/api/trades?limit=1')).body.trades;
    const note = await createNote(alice, { title: 'Linked', content: '**why** it worked', trade_id: trade.id });
    const file = (await alice.post('/api/attachments', { trade_id: trade.id, url: 'https://x.test/chart.png' })).body;

    const res = await alice.get(`/api/trade-details/${trade.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.trade).toMatchObject({
      id: trade.id,
      symbol: 'MNQ',
      side: 'Long',
      contract: 'MNQH5',
      quantity: '3.00000000',
      entry_time: '2025-03-03T14:35:00.000Z',
      exit_time: '2025-03-03T14:52:10.000Z',
      entry_price: '21050.25000000',
      exit_price: '21061.75000000',
      gross_pnl: '69.00',
      commission: '2.22',
      pnl: '66.78',
      period: 'AM',
      trade_type: 'Breakout',
      tags: ['A+', 'NQ'],
      notes: 'Clean break of IB high',
      link: 'https://www.tradingview.com/x/abc/',
      account_id: account.id,
      account_name: 'Apex 50k',
      trade_date: '2025-03-03T12:00:00.000Z',
      status: 'Win',
    });
    expect(res.body.notes).toEqual([
      expect.objectContaining({ id: note.id, title: 'Linked', content: '**why** it worked', net_pl: '66.78', stocks_traded: 'MNQ' }),
    ]);
    expect(res.body.attachments).toEqual([expect.objectContaining({ id: file.id, url: 'https://x.test/chart.png' })]);
  });

  it("walks the trader's trades in order with previous (older) and next (newer), same-day trades by creation", async () => {
    const trader = await newTrader(app, 'walk');
    const a = await createTrade(trader, { date: '2025-03-03', symbol: 'A' });
    const c = await createTrade(trader, { date: '2025-03-05', symbol: 'C' });
    const b1 = await createTrade(trader, { date: '2025-03-04', symbol: 'B1' });
    const b2 = await createTrade(trader, { date: '2025-03-04', symbol: 'B2' });
    // Another trader's trade in between never appears in the walk.
    const other = await newTrader(app, 'walk');
    await createTrade(other, { date: '2025-03-04', symbol: 'X' });

    const walk = async (id: string) => {
      const { previous_id, next_id } = (await trader.get(`/api/trade-details/${id}`)).body;
      return [previous_id, next_id];
    };
    expect(await walk(a.id)).toEqual([null, b1.id]);
    expect(await walk(b1.id)).toEqual([a.id, b2.id]);
    expect(await walk(b2.id)).toEqual([b1.id, c.id]);
    expect(await walk(c.id)).toEqual([b2.id, null]);
  });

  it('an unknown id, a malformed id and another trader’s id are all not found (404/400), never an empty page', async () => {
    const bob = await newTrader(app, 'bob');
    const trade = await createTrade(alice, { symbol: 'SECRET', pnl: 1 });
    const stranger = await bob.get(`/api/trade-details/${trade.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ error: 'Trade not found' });
    expect((await alice.get('/api/trade-details/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const bad = await alice.get('/api/trade-details/42');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('id: id must be a trade id');
  });

  it('creating a linked note from the page links it; deleting the trade keeps the note, unlinked', async () => {
    const trade = await createTrade(alice, { symbol: 'YM', pnl: -20 });
    const created = await createNote(alice, { title: 'Post-mortem', content: 'Moved my stop.', trade_id: trade.id });
    expect((await alice.get(`/api/trade-details/${trade.id}`)).body.notes.map((n: { id: string }) => n.id)).toEqual([created.id]);
    expect((await alice.delete(`/api/trades/${trade.id}`)).status).toBe(204);
    expect((await alice.get(`/api/trade-details/${trade.id}`)).status).toBe(404);
    expect((await alice.get(`/api/notes/${created.id}`)).body).toMatchObject({ title: 'Post-mortem', trade_id: null });
  });
});
