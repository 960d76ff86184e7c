import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trade, tradePage } from '../../src/contract/trades';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, listAll, newTrader } from './trades-support';

/**
 * Create, read, update, delete, bulk delete, assignment and the unassigned count over HTTP.
 */
describe.each(backends())('trades: create, update, delete, assign on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceAccount: { id: string; name: string };
  let bobAccount: { id: string; name: string };

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
    aliceAccount = await createAccount(alice, 'Alice Eval');
    bobAccount = await createAccount(bob, 'Bob Funded');
  });
  afterAll(() => app?.close());

  it('answers create, update, the list and an import in the shape of the shared contract (src/contract/trades.ts)', async () => {
    // A strict schema: a field the server adds, drops or retypes without the contract fails here, not in the browser.
    const created = await alice.post('/api/trades', {
      date: '2026-03-09',
      period: 'AM',
      symbol: 'NQ',
      pnl: -42.5,
      commission: 4.28,
      account_id: aliceAccount.id,
      tags: ['Scalp'],
    });
    expect(created.status).toBe(201);
    expect(trade.parse(created.body)).toMatchObject({ symbol: 'NQ', status: 'Loss', account_name: 'Alice Eval', tags: ['Scalp'] });
    const updated = await alice.patch(`/api/trades/${created.body.id}`, { notes: 'moved stop too early' });
    expect(updated.status).toBe(200);
    expect(trade.parse(updated.body).notes).toBe('moved stop too early');
    expect(trade.parse((await alice.get(`/api/trades/${created.body.id}`)).body).id).toBe(created.body.id);
    const imported = await alice.post('/api/trades/import', {
      account_id: aliceAccount.id,
      trades: [{ date: '2026-03-10', period: 'PM', symbol: 'ES', pnl: 125, side: 'Long', entry_price: 5012.25, exit_price: 5014.75, quantity: 1 }],
    });
    expect(imported.status).toBe(201);
    const page = await alice.get('/api/trades?limit=50');
    expect(page.status).toBe(200);
    const parsed = tradePage.parse(page.body);
    expect(parsed.trades.length).toBeGreaterThanOrEqual(2);
    expect(parsed.trades.find((t) => t.symbol === 'ES')).toMatchObject({ side: 'Long', entry_price: expect.stringMatching(/^5012\.25/) });
  });

  describe('create', () => {
    it('refuses a trade without a date or a session with the spec message and names what is missing', async () => {
      const noDate = await alice.post('/api/trades', { period: 'AM', pnl: 10 });
      expect(noDate.status).toBe(400);
      expect(noDate.body.error).toBe('Please fill in all required fields.');
      expect(noDate.body.missing).toEqual(['date']);
      expect(noDate.body.fields).toEqual([{ field: 'trade_date', message: 'Please fill in all required fields.' }]);

      const noSession = await alice.post('/api/trades', { date: '2025-03-03', period: '   ', pnl: 10 });
      expect(noSession.status).toBe(400);
      expect(noSession.body.error).toBe('Please fill in all required fields.');
      expect(noSession.body.missing).toEqual(['session']);
      expect(noSession.body.fields).toEqual([{ field: 'period', message: 'Please fill in all required fields.' }]);

      // A date given but written wrong is not a missing one: the 400 names the field as it was sent.
      for (const [key, date] of [
        ['date', '03/03/2025x'],
        ['date', '2025-02-30'],
        ['trade_date', '2025-13-01'],
        ['trade_date', '2026-02-30T10:00:00Z'],
      ] as const) {
        const bad = await alice.post('/api/trades', { [key]: date, period: 'AM' });
        expect(bad.status, date).toBe(400);
        expect(bad.body.error, date).toBe(`${key}: must be a date as yyyy-MM-dd or an ISO timestamp with its zone`);
      }
      expect((await alice.post('/api/trades', { date: '2024-02-29', period: 'AM' })).body.day_of_week).toBe('Thursday');
    });

    it('refuses a malformed or unknown account_id with a 400 naming account_id', async () => {
      const malformed = await alice.post('/api/trades', { date: '2025-03-03', period: 'AM', account_id: 'nope' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/^account_id: /);

      const unknown = await alice.post('/api/trades', {
        date: '2025-03-03',
        period: 'AM',
        account_id: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatch(/^account_id: /);
    });

    it("refuses to file a trade under another trader's account, and stores nothing", async () => {
      const before = (await alice.get('/api/trades?limit=1')).body.total;
      const res = await alice.post('/api/trades', { date: '2025-03-03', period: 'AM', pnl: 5, account_id: bobAccount.id });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^account_id: /);
      expect((await alice.get('/api/trades?limit=1')).body.total).toBe(before);
      expect((await bob.get(`/api/trades?account=${bobAccount.id}`)).body.total).toBe(0);
    });

    it('derives the result from the net pnl whatever result was chosen (Loss with +50 is a Win, Win with -20 a Loss, 0 is BE)', async () => {
      const win = await createTrade(alice, { status: 'Loss', pnl: 50 });
      expect(win).toMatchObject({ status: 'Win', pnl: '50.00' });
      const loss = await createTrade(alice, { status: 'Win', pnl: '-20' });
      expect(loss).toMatchObject({ status: 'Loss', pnl: '-20.00' });
      const be = await createTrade(alice, { status: 'Win', pnl: 0, commission: 4 });
      expect(be).toMatchObject({ status: 'BE', pnl: '0.00', commission: '4.00' });
    });

    it('takes pnl as net, stores the commission absolute, and counts non-numeric pnl or commission as 0', async () => {
      const t = await createTrade(alice, { pnl: '12.5', commission: -4.56 });
      expect(t).toMatchObject({ pnl: '12.50', commission: '4.56', status: 'Win' });
      const garbage = await createTrade(alice, { pnl: 'abc', commission: 'xyz', status: 'Win' });
      expect(garbage).toMatchObject({ pnl: '0.00', commission: '0.00', status: 'BE' });
      const tiny = await createTrade(alice, { pnl: '-0.01' });
      expect(tiny).toMatchObject({ pnl: '-0.01', status: 'Loss' });
    });

    it('refuses money beyond what a trade can hold with a 400 naming the field, instead of a database error', async () => {
      for (const [field, value] of [
        ['pnl', '1e20'],
        ['pnl', '-100000000000000'],
        ['commission', 1e300],
        ['pnl', '1e400'],
      ] as const) {
        const res = await alice.post('/api/trades', { date: '2025-03-03', period: 'AM', [field]: value });
        expect(res.status, `${field}=${value}`).toBe(400);
        expect(res.body.error).toMatch(new RegExp(`^${field}: `));
      }
      const t = await createTrade(alice, { pnl: '-999999999.99' });
      expect(t.pnl).toBe('-999999999.99');
      const patched = await alice.patch(`/api/trades/${t.id}`, { pnl: '1e15' });
      expect(patched.status).toBe(400);
      expect((await alice.get(`/api/trades/${t.id}`)).body.pnl).toBe('-999999999.99');
    });

    it('stores the trading day at 12:00 UTC, the day name from the date, and tags from a comma string', async () => {
      const t = await createTrade(alice, {
        date: '2025-03-05',
        day_of_week: 'Sunday',
        symbol: 'ES',
        trade_type: 'Breakout',
        tags: ' Scalp, NQ ,, scalp,Day Trade ',
        notes: 'first pullback',
        link: 'https://example.com/chart',
      });
      expect(t).toMatchObject({
        trade_date: '2025-03-05T12:00:00.000Z',
        date: '2025-03-05',
        day_of_week: 'Wednesday',
        symbol: 'ES',
        period: 'AM',
        trade_type: 'Breakout',
        tags: ['Scalp', 'NQ', 'Day Trade'],
        notes: 'first pullback',
        link: 'https://example.com/chart',
        account_id: null,
        account_name: null,
      });
      // A timestamp with an offset is read in the trader's zone (America/New_York by default): 02:00 UTC on the
      // 6th is still the evening of Wednesday the 5th in New York.
      const evening = await createTrade(alice, { date: '2025-03-06T02:00:00Z' });
      expect(evening).toMatchObject({ date: '2025-03-05', trade_date: '2025-03-05T12:00:00.000Z', day_of_week: 'Wednesday' });
      const missingSymbol = await createTrade(alice, {});
      expect(missingSymbol.symbol).toBe('Unknown');
    });

    it('files the trade under the account and answers it with the account name; GET /:id gives the same trade', async () => {
      const t = await createTrade(alice, { account_id: aliceAccount.id, pnl: 1 });
      expect(t).toMatchObject({ account_id: aliceAccount.id, account_name: 'Alice Eval' });
      const got = await alice.get(`/api/trades/${t.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(t);
    });
  });

  describe('update', () => {
    it('re-derives the result on a partial patch: pnl only, result only, notes only', async () => {
      const t = await createTrade(alice, { pnl: 40, commission: 2, date: '2025-03-04', tags: 'a,b', notes: 'n' });
      const toLoss = await alice.patch(`/api/trades/${t.id}`, { pnl: '-15.25' });
      expect(toLoss.status).toBe(200);
      expect(toLoss.body).toMatchObject({
        status: 'Loss',
        pnl: '-15.25',
        commission: '2.00',
        date: '2025-03-04',
        day_of_week: 'Tuesday',
        tags: ['a', 'b'],
        notes: 'n',
      });

      // Choosing Win on a losing trade does not make it a Win: the result follows the pnl.
      const chosen = await alice.patch(`/api/trades/${t.id}`, { status: 'Win' });
      expect(chosen.body).toMatchObject({ status: 'Loss', pnl: '-15.25' });

      const notesOnly = await alice.patch(`/api/trades/${t.id}`, { notes: 'changed' });
      expect(notesOnly.body).toMatchObject({
        status: 'Loss',
        pnl: '-15.25',
        commission: '2.00',
        trade_date: '2025-03-04T12:00:00.000Z',
        period: 'AM',
        notes: 'changed',
      });
      expect(notesOnly.body.updated_at >= t.updated_at).toBe(true);
    });

    it('moves the day name with the date, and keeps the date in a zone far east of UTC', async () => {
      const t = await createTrade(alice, { date: '2025-03-04', pnl: 3 });
      const moved = await alice.patch(`/api/trades/${t.id}`, { date: '2025-03-08' });
      expect(moved.body).toMatchObject({ date: '2025-03-08', day_of_week: 'Saturday', trade_date: '2025-03-08T12:00:00.000Z' });

      // A trader in Auckland (UTC+13 in March) edits only the notes: the stored noon-UTC day must not shift.
      const kiwi = await newTrader(app, 'kiwi');
      expect((await kiwi.patch('/api/preferences', { time_zone: 'Pacific/Auckland' })).status).toBe(200);
      const k = await createTrade(kiwi, { date: '2025-03-04', pnl: 3 });
      const edited = await kiwi.patch(`/api/trades/${k.id}`, { notes: 'x' });
      expect(edited.body).toMatchObject({ date: '2025-03-04', day_of_week: 'Tuesday' });
    });

    it('moves a trade between accounts and back to unassigned; refuses an account that is not the caller’s', async () => {
      const t = await createTrade(alice, { pnl: 1 });
      const assigned = await alice.patch(`/api/trades/${t.id}`, { account_id: aliceAccount.id });
      expect(assigned.body).toMatchObject({ account_id: aliceAccount.id, account_name: 'Alice Eval' });
      const refused = await alice.patch(`/api/trades/${t.id}`, { account_id: bobAccount.id });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^account_id: /);
      expect((await alice.get(`/api/trades/${t.id}`)).body.account_id).toBe(aliceAccount.id);
      const unassigned = await alice.patch(`/api/trades/${t.id}`, { account_id: null });
      expect(unassigned.body).toMatchObject({ account_id: null, account_name: null });
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const unknown = await alice.patch('/api/trades/00000000-0000-4000-8000-000000000000', { notes: 'x' });
      expect(unknown.status).toBe(404);
      expect((await alice.get('/api/trades/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      const malformed = await alice.patch('/api/trades/not-a-uuid', { notes: 'x' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/^id: /);
    });

    it("answers 404 for another trader's trade and leaves their row unchanged", async () => {
      const theirs = await createTrade(bob, { pnl: 77, notes: 'bob only', account_id: bobAccount.id });
      const res = await alice.patch(`/api/trades/${theirs.id}`, { pnl: -1, notes: 'hacked', account_id: aliceAccount.id });
      expect(res.status).toBe(404);
      expect((await alice.get(`/api/trades/${theirs.id}`)).status).toBe(404);
      expect((await bob.get(`/api/trades/${theirs.id}`)).body).toEqual(theirs);
    });
  });

  describe('delete and bulk delete', () => {
    it('deletes one trade; a second delete is a 404', async () => {
      const t = await createTrade(alice, { pnl: 1 });
      expect((await alice.delete(`/api/trades/${t.id}`)).status).toBe(204);
      expect((await alice.get(`/api/trades/${t.id}`)).status).toBe(404);
      expect((await alice.delete(`/api/trades/${t.id}`)).status).toBe(404);
    });

    it("refuses to delete another trader's trade: 404, and it is still there", async () => {
      const theirs = await createTrade(bob, { pnl: 2 });
      expect((await alice.delete(`/api/trades/${theirs.id}`)).status).toBe(404);
      expect((await bob.get(`/api/trades/${theirs.id}`)).body).toEqual(theirs);
    });

    it("bulk delete with a mix of own and another trader's ids deletes only the caller's", async () => {
      const mine = await Promise.all([1, 2, 3].map((pnl) => createTrade(alice, { pnl, notes: 'bulk-mine' })));
      const keep = await createTrade(alice, { pnl: 4, notes: 'bulk-mine' });
      const theirs = await Promise.all([5, 6].map((pnl) => createTrade(bob, { pnl, notes: 'bulk-theirs' })));
      const res = await alice.post('/api/trades/bulk-delete', { ids: [...mine, ...theirs].map((t) => t.id) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 3 });
      expect((await listAll(alice, 'q=bulk-mine')).map((t) => t.id)).toEqual([keep.id]);
      for (const t of theirs) expect((await bob.get(`/api/trades/${t.id}`)).body).toEqual(t);
    });

    it('deletes and assigns a Select All of 70,000 ids (more than a statement can bind one by one)', async () => {
      const dan = await newTrader(app, 'dan');
      const acct = await createAccount(dan, 'Dan');
      const real = await Promise.all([1, 2, 3].map((pnl) => createTrade(dan, { pnl })));
      const filler = Array.from({ length: 70_000 }, () => crypto.randomUUID());
      const ids = [...filler.slice(0, 35_000), ...real.map((t) => t.id), ...filler.slice(35_000)];
      const assigned = await dan.post('/api/trades/assign', { ids, account_id: acct.id });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
      expect(assigned.body).toEqual({ assigned: 3 });
      const deleted = await dan.post('/api/trades/bulk-delete', { ids });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(deleted.body).toEqual({ deleted: 3 });
      expect((await dan.get('/api/trades?limit=1')).body.total).toBe(0);
    });

    it('refuses an empty or malformed id list with a 400', async () => {
      const empty = await alice.post('/api/trades/bulk-delete', { ids: [] });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toMatch(/^ids: /);
      const malformed = await alice.post('/api/trades/bulk-delete', { ids: ['x'] });
      expect(malformed.status).toBe(400);
    });
  });

  describe('assignment and the unassigned count', () => {
    it('counts trades without an account, and assigning moves them into the account', async () => {
      const carol = await newTrader(app, 'carol');
      const account = await createAccount(carol, 'Carol Live');
      const loose = await Promise.all([1, 2, 3].map((pnl) => createTrade(carol, { pnl })));
      await createTrade(carol, { pnl: 9, account_id: account.id });
      expect((await carol.get('/api/trades/unassigned-count')).body).toEqual({ count: 3 });
      expect((await carol.get('/api/trades?account=unassigned')).body.total).toBe(3);

      const res = await carol.post('/api/trades/assign', { ids: [loose[0]!.id, loose[1]!.id], account_id: account.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ assigned: 2 });
      expect((await carol.get('/api/trades/unassigned-count')).body).toEqual({ count: 1 });
      const inAccount = await listAll(carol, `account=${account.id}`);
      expect(inAccount).toHaveLength(3);
      expect(new Set(inAccount.map((t) => t.account_name))).toEqual(new Set(['Carol Live']));
      expect((await listAll(carol, 'account=unassigned')).map((t) => t.id)).toEqual([loose[2]!.id]);
    });

    it("refuses to assign to another trader's account and moves nothing", async () => {
      const t = await createTrade(alice, { pnl: 1 });
      const countBefore = (await alice.get('/api/trades/unassigned-count')).body.count;
      const res = await alice.post('/api/trades/assign', { ids: [t.id], account_id: bobAccount.id });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^account_id: /);
      expect((await alice.get(`/api/trades/${t.id}`)).body.account_id).toBeNull();
      expect((await alice.get('/api/trades/unassigned-count')).body.count).toBe(countBefore);
    });

    it("assigning another trader's trade ids does nothing to them", async () => {
      const theirs = await createTrade(bob, { pnl: 3 });
      const res = await alice.post('/api/trades/assign', { ids: [theirs.id], account_id: aliceAccount.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ assigned: 0 });
      expect((await bob.get(`/api/trades/${theirs.id}`)).body).toEqual(theirs);
      expect((await alice.get(`/api/trades/${theirs.id}`)).status).toBe(404);
    });

    it('asks for an account and for trades with the spec messages', async () => {
      const t = await createTrade(alice, { pnl: 1 });
      const noAccount = await alice.post('/api/trades/assign', { ids: [t.id] });
      expect(noAccount.status).toBe(400);
      expect(noAccount.body.error).toMatch(/^account_id: /);
      const noTrades = await alice.post('/api/trades/assign', { ids: [], account_id: aliceAccount.id });
      expect(noTrades.status).toBe(400);
      expect(noTrades.body.error).toBe('ids: Please select trades to assign');
    });
  });
});
