import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, newTrader } from './trades-support';
import { listNotes } from './notes-support';

/**
 * The daily journal over HTTP: the day
 * list from the trades' stored trading day, newest first, with P&L to the cent; one note per date titled with the
 * date, in the 'Daily Journal' folder created once, also under concurrent saves.
 */
describe.each(backends())('daily journal API on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  interface Day {
    date: string;
    trades: number;
    pnl: string;
    has_note: boolean;
  }
  const days = async (client: ApiClient, query = ''): Promise<Day[]> => {
    const res = await client.get(`/api/journal/days${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days;
  };

  it("lists trading days newest first with each day's summed P&L, exact to the cent", async () => {
    const trader = await newTrader(app, 'journal');
    await createTrade(trader, { date: '2025-03-03', pnl: '0.10' });
    await createTrade(trader, { date: '2025-03-03', pnl: '0.20' });
    await createTrade(trader, { date: '2025-03-04', pnl: '-150.25' });
    await createTrade(trader, { date: '2025-03-04', pnl: '150.25' });
    await createTrade(trader, { date: '2025-03-07', pnl: '-12.5' });
    expect(await days(trader)).toEqual([
      { date: '2025-03-07', trades: 1, pnl: '-12.50', has_note: false },
      { date: '2025-03-04', trades: 2, pnl: '0.00', has_note: false },
      { date: '2025-03-03', trades: 2, pnl: '0.30', has_note: false },
    ]);
  });

  it('follows every change to the trades: an edited P&L, a trade moved to another day, a deleted trade', async () => {
    const trader = await newTrader(app, 'journal');
    const a = await createTrade(trader, { date: '2025-03-03', pnl: '10.10' });
    const b = await createTrade(trader, { date: '2025-03-03', pnl: '5.05' });
    const c = await createTrade(trader, { date: '2025-03-05', pnl: '-1.01' });
    expect((await trader.patch(`/api/trades/${a.id}`, { pnl: '-20.20' })).status).toBe(200);
    expect((await trader.patch(`/api/trades/${b.id}`, { date: '2025-03-04' })).status).toBe(200);
    expect((await trader.delete(`/api/trades/${c.id}`)).status).toBeLessThan(300);
    expect(await days(trader)).toEqual([
      { date: '2025-03-04', trades: 1, pnl: '5.05', has_note: false },
      { date: '2025-03-03', trades: 1, pnl: '-20.20', has_note: false },
    ]);
  });

  it('counts a trade on its stored trading day: an import of an evening Globex session counts on the next day', async () => {
    const trader = await newTrader(app, 'journal');
    const account = (await trader.post('/api/accounts', { name: 'Futures' })).body;
    // A backup import keeps the stored trade_date (the trading day at 12:00 UTC), whatever the entry time says.
    const imported = await trader.post('/api/trades/import', {
      account_id: account.id,
      trades: [{ trade_date: '2025-03-04T12:00:00Z', entry_time: '2025-03-03T23:30:00Z', symbol: 'NQ', period: 'Overnight', pnl: 40 }],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(await days(trader)).toEqual([{ date: '2025-03-04', trades: 1, pnl: '40.00', has_note: false }]);
    const day = (await trader.get('/api/journal/2025-03-04')).body;
    expect(day.trades.map((t: { symbol: string }) => t.symbol)).toEqual(['NQ']);
    expect((await trader.get('/api/journal/2025-03-03')).body.trades).toEqual([]);
  });

  it("gives each of a day's trades its execution: times with their zone, size, prices, gross and fees, exact", async () => {
    const trader = await newTrader(app, 'journal');
    const account = (await trader.post('/api/accounts', { name: 'Futures' })).body;
    const imported = await trader.post('/api/trades/import', {
      account_id: account.id,
      trades: [
        {
          trade_date: '2025-03-04T12:00:00Z',
          symbol: 'MNQ',
          contract: 'MNQH5',
          period: 'AM',
          entry_time: '2025-03-04T14:31:05Z',
          exit_time: '2025-03-04T14:45:12Z',
          quantity: '3',
          entry_price: '21050.25',
          exit_price: '21060.5',
          gross_pnl: '61.50',
          commission: '4.28',
          pnl: '57.22',
        },
      ],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    await createTrade(trader, { date: '2025-03-04', symbol: 'ES', pnl: '-20.00', commission: '2.10' });
    const day = (await trader.get('/api/journal/2025-03-04')).body;
    const bySymbol = Object.fromEntries(day.trades.map((t: { symbol: string }) => [t.symbol, t]));
    expect(bySymbol.MNQ).toMatchObject({
      contract: 'MNQH5',
      entry_time: '2025-03-04T14:31:05.000Z',
      exit_time: '2025-03-04T14:45:12.000Z',
      pnl: '57.22',
      gross_pnl: '61.50',
      commission: '4.28',
    });
    expect(Number(bySymbol.MNQ.quantity)).toBe(3);
    expect(Number(bySymbol.MNQ.entry_price)).toBe(21050.25);
    expect(Number(bySymbol.MNQ.exit_price)).toBe(21060.5);
    // A trade typed by hand has no execution: nulls, never invented figures; its commission is still there.
    expect(bySymbol.ES).toMatchObject({
      contract: null,
      entry_time: null,
      exit_time: null,
      quantity: null,
      entry_price: null,
      exit_price: null,
      gross_pnl: null,
      commission: '2.10',
      pnl: '-20.00',
    });
    expect(day.pnl).toBe('37.22');
  });

  it('saves one note per date titled with the date in the Daily Journal folder; a note-only day is listed', async () => {
    const trader = await newTrader(app, 'journal');
    await createTrade(trader, { date: '2025-03-03', pnl: 25, symbol: 'NQ' });
    const empty = await trader.get('/api/journal/2025-03-03');
    expect(empty.body).toMatchObject({ date: '2025-03-03', pnl: '25.00', note: null });

    const first = await trader.put('/api/journal/2025-03-03', { content: 'Patient open.' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.note).toMatchObject({ title: '2025-03-03', content: 'Patient open.' });
    const second = await trader.put('/api/journal/2025-03-03', { content: 'Patient open. Chased the close.' });
    expect(second.body.note.id).toBe(first.body.note.id);
    expect((await trader.get('/api/journal/2025-03-03')).body.note.content).toBe('Patient open. Chased the close.');

    // A Saturday review, a day without trades.
    await trader.put('/api/journal/2025-03-08', { content: 'Weekly review' });
    expect(await days(trader)).toEqual([
      { date: '2025-03-08', trades: 0, pnl: '0.00', has_note: true },
      { date: '2025-03-03', trades: 1, pnl: '25.00', has_note: true },
    ]);

    const folders = (await trader.get('/api/note-folders')).body;
    expect(folders.map((f: { name: string; note_count: number }) => [f.name, f.note_count])).toEqual([['Daily Journal', 2]]);
    // The journal notes are notebook notes too, with the day's P&L and symbols.
    const notes = await listNotes(trader, `folder_id=${folders[0].id}`);
    expect(notes.map((n) => [n.title, n.journal_date, n.net_pl, n.stocks_traded])).toEqual([
      ['2025-03-08', '2025-03-08', null, null],
      ['2025-03-03', '2025-03-03', '25.00', 'NQ'],
    ]);
  });

  it('creates the Daily Journal folder once and one note per date when many saves race', async () => {
    const trader = await newTrader(app, 'journal');
    const dates = ['2025-04-01', '2025-04-02', '2025-04-03'];
    const saves = await Promise.all(Array.from({ length: 12 }, (_, i) => trader.put(`/api/journal/${dates[i % 3]}`, { content: `draft ${i}` })));
    for (const res of saves) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const folders = (await trader.get('/api/note-folders')).body;
    expect(folders.map((f: { name: string }) => f.name)).toEqual(['Daily Journal']);
    expect(folders[0].note_count).toBe(3);
    expect((await days(trader)).map((d) => d.date)).toEqual(['2025-04-03', '2025-04-02', '2025-04-01']);
  });

  it('a folder the trader made called Daily Journal is the one used', async () => {
    const trader = await newTrader(app, 'journal');
    const mine = (await trader.post('/api/note-folders', { name: 'Daily Journal' })).body;
    const saved = await trader.put('/api/journal/2025-05-05', { content: 'x' });
    expect(saved.body.note.folder_id).toBe(mine.id);
  });

  it('filters the day list to one date, listing it even before anything is written', async () => {
    const trader = await newTrader(app, 'journal');
    await createTrade(trader, { date: '2025-03-03', pnl: 10 });
    await createTrade(trader, { date: '2025-03-05', pnl: -3 });
    expect(await days(trader, '?date=2025-03-05')).toEqual([{ date: '2025-03-05', trades: 1, pnl: '-3.00', has_note: false }]);
    expect(await days(trader, '?date=2025-03-04')).toEqual([{ date: '2025-03-04', trades: 0, pnl: '0.00', has_note: false }]);
  });

  it('refuses impossible dates and bad bodies with a 400 naming the field', async () => {
    const trader = await newTrader(app, 'journal');
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', '/api/journal/days?date=2025-02-30', undefined, 'date: must be a date as yyyy-MM-dd that exists'],
      ['GET', '/api/journal/03-03-2025', undefined, 'date: must be a date as yyyy-MM-dd that exists'],
      ['PUT', '/api/journal/2025-13-01', { content: 'x' }, 'date: must be a date as yyyy-MM-dd that exists'],
      // Year 0 passed JavaScript's Date and failed in PostgreSQL, a 500.
      ['GET', '/api/journal/days?date=0000-01-01', undefined, 'date: must be a date as yyyy-MM-dd that exists'],
      ['GET', '/api/journal/0000-01-01', undefined, 'date: must be a date as yyyy-MM-dd that exists'],
      ['PUT', '/api/journal/0000-01-01', { content: 'x' }, 'date: must be a date as yyyy-MM-dd that exists'],
      ['PUT', '/api/journal/2025-03-03', {}, 'content: content is required'],
      ['PUT', '/api/journal/2025-03-03', { content: 'x'.repeat(200_001) }, 'content: must be at most 200,000 characters'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await trader.json(method, path, body);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toBe(message);
    }
    expect(await days(trader)).toEqual([]);
  });

  it('two tabs: a save based on an older version of the day (or on none) is refused with 409 note-changed', async () => {
    const trader = await newTrader(app, 'tabs');
    // Both tabs opened an unwritten day; tab B saves first.
    const tabB = await trader.put('/api/journal/2025-07-01', { base_updated_at: null, content: 'from tab B' });
    expect(tabB.status, JSON.stringify(tabB.body)).toBe(200);
    const tabA = await trader.put('/api/journal/2025-07-01', { base_updated_at: null, content: 'from tab A' });
    expect(tabA.status).toBe(409);
    expect(tabA.body).toMatchObject({ code: 'note-changed', updated_at: tabB.body.note.updated_at });
    expect((await trader.get('/api/journal/2025-07-01')).body.note.content).toBe('from tab B');
    // On top of the version it saw, a save goes through; one based on that older version then is refused.
    const next = await trader.put('/api/journal/2025-07-01', { base_updated_at: tabB.body.note.updated_at, content: 'B, later' });
    expect(next.status).toBe(200);
    const stale = await trader.put('/api/journal/2025-07-01', { base_updated_at: tabB.body.note.updated_at, content: 'stale' });
    expect(stale.status).toBe(409);
    expect((await trader.get('/api/journal/2025-07-01')).body.note.content).toBe('B, later');
    // Without a version the save is not checked (as before); a bad version names the field.
    expect((await trader.put('/api/journal/2025-07-01', { content: 'unchecked' })).status).toBe(200);
    const bad = await trader.put('/api/journal/2025-07-01', { base_updated_at: 12, content: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^base_updated_at: /);
  });

  it("never shows another trader's days, P&L or journal notes", async () => {
    const alice = await newTrader(app, 'alice');
    const bob = await newTrader(app, 'bob');
    await createTrade(alice, { date: '2025-06-02', pnl: 999 });
    await alice.put('/api/journal/2025-06-02', { content: 'alice secret' });
    expect(await days(bob)).toEqual([]);
    const day = (await bob.get('/api/journal/2025-06-02')).body;
    expect(day).toEqual({ date: '2025-06-02', pnl: '0.00', trades: [], note: null });
    // Bob writing the same date makes his own note; Alice's stays as it was.
    await bob.put('/api/journal/2025-06-02', { content: 'bob' });
    expect((await alice.get('/api/journal/2025-06-02')).body.note.content).toBe('alice secret');
    expect((await bob.get('/api/note-folders')).body).toHaveLength(1);
  });

  it("narrows the days, the day and its P&L to one account, names each trade's account, and refuses another trader's account", async () => {
    const trader = await newTrader(app, 'journal');
    const main = await createAccount(trader, 'Main');
    const copy = await createAccount(trader, 'Copy');
    // The same trade copied into two accounts, one more in Main only, one without an account, on other days too.
    await createTrade(trader, { date: '2025-04-01', symbol: 'NQ', pnl: '100.10', account_id: main.id });
    await createTrade(trader, { date: '2025-04-01', symbol: 'NQ', pnl: '100.10', account_id: copy.id });
    await createTrade(trader, { date: '2025-04-01', symbol: 'ES', pnl: '-30.05', account_id: main.id });
    await createTrade(trader, { date: '2025-04-01', symbol: 'YM', pnl: '7.00' });
    await createTrade(trader, { date: '2025-04-02', symbol: 'ES', pnl: '5.00', account_id: copy.id });
    await trader.put('/api/journal/2025-04-03', { content: 'a day of no trades' });

    expect(await days(trader, `?account=${main.id}`)).toEqual([
      { date: '2025-04-03', trades: 0, pnl: '0.00', has_note: true },
      { date: '2025-04-01', trades: 2, pnl: '70.05', has_note: false },
    ]);
    expect(await days(trader, `?account=${copy.id}`)).toEqual([
      { date: '2025-04-03', trades: 0, pnl: '0.00', has_note: true },
      { date: '2025-04-02', trades: 1, pnl: '5.00', has_note: false },
      { date: '2025-04-01', trades: 1, pnl: '100.10', has_note: false },
    ]);
    expect((await days(trader, '?account=unassigned')).find((d) => d.date === '2025-04-01')).toEqual({
      date: '2025-04-01',
      trades: 1,
      pnl: '7.00',
      has_note: false,
    });
    expect((await days(trader, '?account=all')).find((d) => d.date === '2025-04-01')).toMatchObject({ trades: 4, pnl: '177.15' });

    const one = (await trader.get(`/api/journal/2025-04-01?account=${main.id}`)).body;
    expect(one.pnl).toBe('70.05');
    expect(one.trades.map((t: { symbol: string; account_name: string | null }) => [t.symbol, t.account_name]).sort()).toEqual([
      ['ES', 'Main'],
      ['NQ', 'Main'],
    ]);
    const all = (await trader.get('/api/journal/2025-04-01')).body;
    expect(all.pnl).toBe('177.15');
    // All accounts: the copied trade is listed twice, each row saying whose it is; the trade without one says null.
    expect(
      all.trades
        .map((t: { symbol: string; account_id: string | null; account_name: string | null }) => `${t.symbol} ${t.account_name} ${t.account_id}`)
        .sort(),
    ).toEqual([`ES Main ${main.id}`, `NQ Copy ${copy.id}`, `NQ Main ${main.id}`, 'YM null null'].sort());

    // Another trader's account id is refused, and shows none of its trades.
    const other = await newTrader(app, 'journal-other');
    for (const path of [`/api/journal/days?account=${main.id}`, `/api/journal/2025-04-01?account=${main.id}`]) {
      const res = await other.get(path);
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(res.body)).not.toContain('NQ');
    }
    expect((await trader.get('/api/journal/days?account=not-an-id')).status).toBe(400);
  });
});
