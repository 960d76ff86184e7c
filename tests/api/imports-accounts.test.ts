import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { brokerFile, importFile, ownFile, previewFile } from './imports-support';
import { createAccount, createTrade, listAll, newTrader } from './trades-support';

/**
 * On both databases: fee schedules per trading account (point 5), the same round trips from two
 * exports of one account (point 6), and a file with several accounts mapped into trading accounts (point 7).
 */
const PERFORMANCE = 'tradovate-performance/freetradejournal__tradovate-trades-performance.csv';
const ORDERS = 'tradovate-orders/freetradejournal__tradovate-orders-history.csv';
const TOPSTEPX = 'topstepx-trades/topsignal__topstep_trade_export_utf8_bom.csv';
const TWO_ACCOUNTS = ownFile('tradovate-orders-two-accounts.csv');
const NY = { time_zone: 'America/New_York' };
const put = (client: ApiClient, path: string, body: unknown) => client.json('PUT', path, body);

describe.each(backends())('imports into trading accounts on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
  });
  afterAll(() => app?.close());

  const tradesOf = (client: ApiClient, accountId: string) => listAll(client, `account=${accountId}`);

  describe('fee schedules (point 5)', () => {
    it('an account starts with the micro and mini defaults; the trader saves rates and per-root overrides', async () => {
      const account = await createAccount(alice, 'Fees');
      const fresh = await alice.get(`/api/imports/fees/${account.id}`);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toEqual({
        account_id: account.id,
        micro: '0.62',
        mini: '2.14',
        roots: {},
        stored: false,
        defaults: { micro: '0.62', mini: '2.14', roots: {} },
      });
      const saved = await put(alice, `/api/imports/fees/${account.id}`, { micro: '0.50', mini: 2, roots: { mnq: '0.35', MES: '0.4' } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body).toMatchObject({ micro: '0.50', mini: '2', roots: { MNQ: '0.35', MES: '0.4' }, stored: true });
      expect((await alice.get(`/api/imports/fees/${account.id}`)).body).toMatchObject({
        micro: '0.5',
        mini: '2',
        roots: { MNQ: '0.35', MES: '0.4' },
        stored: true,
      });
    });

    it('refuses bad rates and roots, naming the field, and changes nothing', async () => {
      const account = await createAccount(alice, 'Fee typos');
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ micro: 'abc', mini: '2' }, /^micro: /],
        [{ micro: '-1', mini: '2' }, /^micro: /],
        [{ micro: '0.5', mini: '1000.01' }, /^mini: /],
        [{ micro: '0.5', mini: '2', roots: { 'M Q': '1' } }, /^roots: /],
        [{ micro: '0.5', mini: '2', roots: { MNQ: '0.123456' } }, /^roots\.MNQ: /],
        [{ micro: '0.5' }, /^mini: /],
        [{ micro: '0.5', mini: '2', extra: 1 }, /.+/],
      ];
      for (const [body, message] of cases) {
        const res = await put(alice, `/api/imports/fees/${account.id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error, JSON.stringify(body)).toMatch(message);
      }
      expect((await alice.get(`/api/imports/fees/${account.id}`)).body.stored).toBe(false);
    });

    it("another trader's account (and a made-up id) is not found on every fee endpoint", async () => {
      const account = await createAccount(alice, 'Private fees');
      for (const id of [account.id, '00000000-0000-4000-8000-000000000000']) {
        expect((await bob.get(`/api/imports/fees/${id}`)).body.error).toBe('account_id: Trading account not found');
        expect((await put(bob, `/api/imports/fees/${id}`, { micro: '9', mini: '9' })).status).toBe(400);
        expect((await bob.post(`/api/imports/fees/${id}/apply`, {})).status).toBe(400);
      }
      expect((await bob.get('/api/imports/fees/not-a-uuid')).status).toBe(400);
      expect((await alice.get(`/api/imports/fees/${account.id}`)).body.stored).toBe(false);
    });

    it("applies the account's schedule where the file has no costs, shows it in the preview, and applies it again on request", async () => {
      const account = await createAccount(alice, 'Tradovate with fees');
      await put(alice, `/api/imports/fees/${account.id}`, { micro: '0.62', mini: '2.14', roots: { MNQ: '0.35' } });
      const seen = await previewFile(alice, { ...NY, account_id: account.id }, brokerFile(PERFORMANCE));
      // 5 MNQ x 2 sides x $0.35
      expect(seen.body.trades.map((t: { commission: string; pnl: string }) => [t.commission, t.pnl])).toEqual([
        ['3.50', '-403.50'],
        ['3.50', '1196.50'],
      ]);
      expect(seen.body.fee_schedules).toEqual([expect.objectContaining({ account_id: account.id, roots: { MNQ: '0.35' }, stored: true })]);
      expect((await importFile(alice, { ...NY, account_id: account.id }, brokerFile(PERFORMANCE))).body.imported).toBe(2);
      // A small winner that fees turn into a loser when the rates go up: 1 MNQ, +1 point.
      const small =
        'symbol,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,buyFillId,sellFillId\nMNQM6,1,20000,20001,$2.00,06/15/2026 10:00:00,06/15/2026 10:01:00,901,902\n';
      expect((await importFile(alice, { ...NY, account_id: account.id }, small)).body.imported).toBe(1);
      const manual = await createTrade(alice, { account_id: account.id, symbol: 'NQ', pnl: 100, commission: 5, date: '2026-06-15' });
      const winner = (await tradesOf(alice, account.id)).find((t) => t.gross_pnl === '2.00')!;
      expect(winner).toMatchObject({ commission: '0.70', pnl: '1.30', status: 'Win' });
      expect(winner.tags).toEqual(['Imported', 'Direct-Parse', 'Winner', 'MNQ', 'AM', 'Long', 'Low-Impact']);

      await put(alice, `/api/imports/fees/${account.id}`, { micro: '1.50', mini: '3' });
      const applied = await alice.post(`/api/imports/fees/${account.id}/apply`, {});
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body).toMatchObject({ updated: 3, trades: 3 });
      const after = await tradesOf(alice, account.id);
      expect(
        after
          .filter((t) => t.gross_pnl !== null)
          .map((t) => [t.gross_pnl, t.commission, t.pnl, t.status])
          .sort(),
      ).toEqual([
        ['-400.00', '15.00', '-415.00', 'Loss'],
        ['1200.00', '15.00', '1185.00', 'Win'],
        ['2.00', '3.00', '-1.00', 'Loss'],
      ]);
      expect(after.find((t) => t.id === winner.id)!.tags).toEqual(['Imported', 'Direct-Parse', 'Loser', 'MNQ', 'AM', 'Long', 'Low-Impact']);
      expect(after.find((t) => t.id === manual.id)).toMatchObject({ commission: '5.00', pnl: '100.00' });
      // Applying the same schedule again changes nothing.
      expect((await alice.post(`/api/imports/fees/${account.id}/apply`, {})).body.updated).toBe(0);
    });

    it("keeps the file's own costs: a TopstepX export is not touched by the schedule", async () => {
      const account = await createAccount(alice, 'Topstep fees');
      await put(alice, `/api/imports/fees/${account.id}`, { micro: '5', mini: '9' });
      const seen = await previewFile(alice, { account_id: account.id }, brokerFile(TOPSTEPX));
      expect(seen.body).toMatchObject({ costs_in_file: true, fee_schedules: [] });
      expect(seen.body.trades[0]).toMatchObject({ commission: '3.72', commission_source: null });
      await importFile(alice, { account_id: account.id }, brokerFile(TOPSTEPX));
      expect((await alice.post(`/api/imports/fees/${account.id}/apply`, {})).body).toMatchObject({ updated: 0, trades: 0 });
      expect((await tradesOf(alice, account.id))[0]).toMatchObject({ commission: '3.72', pnl: '198.78' });
    });
  });

  describe('the same round trips from two exports of one account (point 6)', () => {
    it('Orders first, then Performance: both Performance trades are duplicates, nothing is added', async () => {
      const account = await createAccount(alice, 'Two exports');
      expect((await importFile(alice, { ...NY, account_id: account.id }, brokerFile(ORDERS))).body.imported).toBe(6);
      const seen = await previewFile(alice, { ...NY, account_id: account.id }, brokerFile(PERFORMANCE));
      expect(seen.body).toMatchObject({ total_trades: 2, new_trades: 0, duplicates: 2, duplicates_from_other_exports: 2 });
      const done = await importFile(alice, { ...NY, account_id: account.id }, brokerFile(PERFORMANCE));
      expect(done.body).toMatchObject({ imported: 0, duplicates: 2 });
      expect(await tradesOf(alice, account.id)).toHaveLength(6);
    });

    it('Performance first, then Orders: only the four trades Performance did not have are added', async () => {
      const account = await createAccount(alice, 'Two exports reversed');
      expect((await importFile(alice, { ...NY, account_id: account.id }, brokerFile(PERFORMANCE))).body.imported).toBe(2);
      const seen = await previewFile(alice, { ...NY, account_id: account.id }, brokerFile(ORDERS));
      expect(seen.body).toMatchObject({ total_trades: 6, new_trades: 4, duplicates: 2, duplicates_from_other_exports: 2 });
      expect((await importFile(alice, { ...NY, account_id: account.id }, brokerFile(ORDERS))).body).toMatchObject({ imported: 4, duplicates: 2 });
      const stored = await tradesOf(alice, account.id);
      expect(stored).toHaveLength(6);
      expect(new Set(stored.map((t) => t.entry_time)).size).toBe(6);
    });

    it('another account holding the same trades does not make them duplicates here', async () => {
      const first = await createAccount(alice, 'Copy A');
      const second = await createAccount(alice, 'Copy B');
      await importFile(alice, { ...NY, account_id: first.id }, brokerFile(ORDERS));
      expect((await previewFile(alice, { ...NY, account_id: second.id }, brokerFile(PERFORMANCE))).body).toMatchObject({
        new_trades: 2,
        duplicates: 0,
      });
    });
  });

  describe('a file with several accounts (point 7)', () => {
    it('previews per file account, refuses to import until each has a trading account, then files each where mapped', async () => {
      const combine = await createAccount(alice, 'Combine 1');
      const express = await createAccount(alice, 'Express 2');
      const unmapped = await previewFile(alice, { ...NY, account_id: combine.id }, TWO_ACCOUNTS);
      expect(unmapped.status, JSON.stringify(unmapped.body)).toBe(200);
      expect(unmapped.body.file_accounts).toEqual([
        expect.objectContaining({ name: 'APEX-1001', account_id: null, source: null, trades: 3, new_trades: 3 }),
        expect.objectContaining({ name: 'APEX-1002', account_id: null, source: null, trades: 3, new_trades: 3 }),
      ]);
      expect(unmapped.body).toMatchObject({ unmapped_trades: 6, new_trades: 6 });
      const refused = await importFile(alice, { ...NY, account_id: combine.id }, TWO_ACCOUNTS);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'account-unmapped', file_accounts: ['APEX-1001', 'APEX-1002'] });
      expect(await tradesOf(alice, combine.id)).toEqual([]);

      const map = JSON.stringify({ 'APEX-1001': combine.id, 'APEX-1002': express.id });
      const mapped = await previewFile(alice, { ...NY, account_id: combine.id, account_map: map }, TWO_ACCOUNTS);
      expect(mapped.body.file_accounts).toEqual([
        // APEX-1001 (MNQ): 50.00 - 11.00 + 48.00 gross, 5 contracts x 2 sides x $0.62 of default fees;
        // APEX-1002 (MES): 63.75 + 67.50 - 6.25 gross, 6 contracts x 2 x $0.62.
        expect.objectContaining({
          name: 'APEX-1001',
          account_id: combine.id,
          source: 'chosen',
          new_trades: 3,
          totals: { trades: 3, gross_pnl: '87.00', commission: '6.20', net_pnl: '80.80' },
        }),
        expect.objectContaining({
          name: 'APEX-1002',
          account_id: express.id,
          source: 'chosen',
          new_trades: 3,
          totals: { trades: 3, gross_pnl: '125.00', commission: '7.44', net_pnl: '117.56' },
        }),
      ]);
      const done = await importFile(alice, { ...NY, account_id: combine.id, account_map: map }, TWO_ACCOUNTS);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({ imported: 6, duplicates: 0 });
      expect(done.body.accounts).toEqual(
        expect.arrayContaining([
          { account_id: combine.id, imported: 3, duplicates: 0 },
          { account_id: express.id, imported: 3, duplicates: 0 },
        ]),
      );
      expect((await tradesOf(alice, combine.id)).map((t) => t.symbol)).toEqual(['MNQ', 'MNQ', 'MNQ']);
      expect((await tradesOf(alice, express.id)).map((t) => t.symbol)).toEqual(['MES', 'MES', 'MES']);

      // The mapping is remembered: the next file of these accounts goes to the same places without being asked.
      const again = await previewFile(alice, { ...NY, account_id: combine.id }, TWO_ACCOUNTS);
      expect(again.body.file_accounts.map((f: { source: string; account_id: string }) => [f.source, f.account_id])).toEqual([
        ['remembered', combine.id],
        ['remembered', express.id],
      ]);
      expect(again.body).toMatchObject({ new_trades: 0, duplicates: 6 });
    });

    it('a file account can be left out, and one named like a trading account goes there', async () => {
      const trader = await newTrader(app, 'namer');
      const named = await createAccount(trader, 'apex-1001');
      const other = await createAccount(trader, 'Other');
      const seen = await previewFile(trader, { ...NY, account_id: other.id, account_map: JSON.stringify({ 'APEX-1002': '' }) }, TWO_ACCOUNTS);
      expect(
        seen.body.file_accounts.map((f: { name: string; source: string; account_id: string | null }) => [f.name, f.source, f.account_id]),
      ).toEqual([
        ['APEX-1001', 'name', named.id],
        ['APEX-1002', 'skipped', null],
      ]);
      expect(seen.body).toMatchObject({ new_trades: 3, skipped_trades: 3, unmapped_trades: 0 });
      const done = await importFile(trader, { ...NY, account_id: other.id, account_map: JSON.stringify({ 'APEX-1002': '' }) }, TWO_ACCOUNTS);
      expect(done.body).toMatchObject({ imported: 3, skipped_trades: 3 });
      expect(await tradesOf(trader, named.id)).toHaveLength(3);
      expect(await tradesOf(trader, other.id)).toEqual([]);
    });

    it("refuses a mapping into another trader's account, and a mapping that is not a JSON object", async () => {
      const mine = await createAccount(alice, 'Mine');
      const theirs = await createAccount(bob, 'Theirs');
      const res = await importFile(
        alice,
        { ...NY, account_id: mine.id, account_map: JSON.stringify({ 'APEX-1001': theirs.id, 'APEX-1002': mine.id }) },
        TWO_ACCOUNTS,
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^account_map: Trading account not found/);
      expect(await tradesOf(bob, theirs.id)).toEqual([]);
      expect(await tradesOf(alice, mine.id)).toEqual([]);
      for (const account_map of ['[1,2]', '{not json', JSON.stringify({ 'APEX-1001': 'not-a-uuid' })]) {
        const bad = await previewFile(alice, { ...NY, account_id: mine.id, account_map }, TWO_ACCOUNTS);
        expect(bad.status, account_map).toBe(400);
        expect(bad.body.error, account_map).toMatch(/^account_map/);
      }
    });

    it('a one-account file suggests the account remembered for it', async () => {
      const trader = await newTrader(app, 'suggest');
      const apex = await createAccount(trader, 'Apex 4977');
      const fallback = await createAccount(trader, 'Default');
      const history = brokerFile('tradovate-position-history/tradetally__tradovate-paired-trades-sample.csv');
      expect((await importFile(trader, { ...NY, account_id: apex.id }, history)).body.imported).toBe(5);
      const seen = await previewFile(trader, { ...NY, account_id: fallback.id }, history);
      expect(seen.body.file_accounts).toEqual([
        expect.objectContaining({ name: 'APEX4977960000002', suggested_account_id: apex.id, account_id: fallback.id, source: 'chosen' }),
      ]);
    });
  });
  describe("the zone of each account's imports", () => {
    const LONDON = ownFile('tradovate-performance-london.csv');

    it("reads the next file of an account in the zone its last import was read in; other accounts keep the trader's own", async () => {
      const trader = await newTrader(app, 'zones');
      const london = await createAccount(trader, 'London desk');
      const other = await createAccount(trader, 'Other desk');

      // Nothing imported yet: the trader's own zone (New York by default).
      const first = await previewFile(trader, { account_id: london.id }, LONDON);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ time_zone: 'America/New_York', time_zone_source: 'profile' });

      const imported = await importFile(trader, { account_id: london.id, time_zone: 'Europe/London' }, LONDON);
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ imported: 6, time_zone: 'Europe/London' });

      // The re-import no longer goes back to New York: the account's zone, and the same instants as stored.
      const again = await previewFile(trader, { account_id: london.id }, LONDON);
      expect(again.body).toMatchObject({ time_zone: 'Europe/London', time_zone_source: 'account', new_trades: 0, duplicates: 6 });
      const stored = await tradesOf(trader, london.id);
      expect(stored.map((t) => t.entry_time).sort()[0]).toBe('2025-07-15T13:35:10.000Z');

      // Another account, and a zone chosen in the dialog, are their own.
      expect((await previewFile(trader, { account_id: other.id }, LONDON)).body).toMatchObject({
        time_zone: 'America/New_York',
        time_zone_source: 'profile',
      });
      expect((await previewFile(trader, { account_id: london.id, time_zone: 'Asia/Tokyo' }, LONDON)).body).toMatchObject({
        time_zone: 'Asia/Tokyo',
        time_zone_source: 'chosen',
      });

      // The trader's own zone moves the accounts without one, not the account that remembers its own.
      expect((await trader.patch('/api/preferences', { time_zone: 'Europe/Berlin' })).status).toBe(200);
      expect((await previewFile(trader, { account_id: other.id }, LONDON)).body).toMatchObject({
        time_zone: 'Europe/Berlin',
        time_zone_source: 'profile',
      });
      expect((await previewFile(trader, { account_id: london.id }, LONDON)).body).toMatchObject({
        time_zone: 'Europe/London',
        time_zone_source: 'account',
      });

      // The last zone used wins: an import read in Chicago time is remembered over London.
      const shifted = await importFile(trader, { account_id: london.id, time_zone: 'America/Chicago' }, LONDON);
      expect(shifted.status, JSON.stringify(shifted.body)).toBe(200);
      expect((await previewFile(trader, { account_id: london.id }, LONDON)).body).toMatchObject({
        time_zone: 'America/Chicago',
        time_zone_source: 'account',
      });
    });

    it("remembers the zone for every account a file's trades went into, and never tells another trader", async () => {
      const trader = await newTrader(app, 'zones-two');
      const first = await createAccount(trader, 'Apex one');
      const second = await createAccount(trader, 'Apex two');
      const map = JSON.stringify({ 'APEX-1001': first.id, 'APEX-1002': second.id });
      const res = await importFile(trader, { account_id: first.id, account_map: map, time_zone: 'America/Chicago' }, TWO_ACCOUNTS);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const account of [first, second]) {
        expect((await previewFile(trader, { account_id: account.id }, LONDON)).body).toMatchObject({
          time_zone: 'America/Chicago',
          time_zone_source: 'account',
        });
      }
      // Bob cannot read through Alice's account: it is not found, and his own imports keep his zone.
      const intruder = await previewFile(bob, { account_id: first.id }, LONDON);
      expect(intruder.status).toBe(400);
      expect(JSON.stringify(intruder.body)).not.toContain('Chicago');
      const bobs = await createAccount(bob, 'Bob zone');
      expect((await previewFile(bob, { account_id: bobs.id }, LONDON)).body).toMatchObject({
        time_zone: 'America/New_York',
        time_zone_source: 'profile',
      });
      // The zone is not a field of the account as the accounts endpoints answer it.
      expect(Object.keys((await trader.get('/api/accounts')).body[0])).not.toContain('import_time_zone');
    });
  });
});
