import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkEditResult, bulkRestoreResult, tradeIds, type BulkEditResult } from '../../src/contract/trades';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, importTrades, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * The Trade Log's bulk actions on both databases: a move into another account keeps the duplicate rule of imports (a
 * trade whose import key the account holds stays and is named, the rest move); a bulk action that fails changes
 * nothing; another trader's trade ids change nothing and answer 404; Undo (bulk-restore) writes back exactly the state
 * before, ticked rules included; Select All's ids are every trade of the filter.
 */
describe.each(backends())('bulk trade actions on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'bulk-alice'), newTrader(app, 'bulk-bob')]);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  /** A backup's rows: each keeps its `id` as its import key in the account it goes to. */
  const backupRows = (keys: string[], day = '2025-06-02') =>
    keys.map((id, i) => ({ id, date: day, period: 'AM', symbol: 'MNQ', trade_type: 'Breakout', pnl: 10 + i, commission: 0, tags: ['A+'] }));
  const byId = async (client: ApiClient) => new Map((await listAll(client)).map((t) => [t.id, t]));
  const pick = (t: TradeDto) => ({ account_id: t.account_id, trade_type: t.trade_type, tags: t.tags });

  it('moves trades to another account, skipping and naming those whose import key it already holds, and Undo puts them back', async () => {
    const from = await createAccount(alice, 'Wrong account');
    const to = await createAccount(alice, 'Right account');
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    await importTrades(alice, from.id, backupRows(keys));
    // The right account already holds the first trade: the file was imported into both.
    await importTrades(alice, to.id, backupRows(keys.slice(0, 1)));
    const manual = await createTrade(alice, { account_id: from.id, date: '2025-06-03', symbol: 'MES', pnl: 5 });
    const moving = (await listAll(alice, `account=${from.id}`)).map((t) => t.id);
    expect(moving.length).toBe(4);
    const before = await byId(alice);

    const moved = conforms(bulkEditResult, await alice.post('/api/trades/bulk-edit', { ids: moving, action: { kind: 'move', account_id: to.id } }));
    expect(moved.updated).toBe(3);
    expect(moved.skipped_duplicates.length).toBe(1);
    const duplicate = moved.skipped_duplicates[0]!;
    expect(before.get(duplicate)!.pnl).toBe('10.00');
    expect((await listAll(alice, `account=${from.id}`)).map((t) => t.id)).toEqual([duplicate]);
    const inTarget = await listAll(alice, `account=${to.id}`);
    expect(inTarget.length).toBe(4);
    expect(inTarget.map((t) => t.id)).toContain(manual.id);
    // The per-account figures follow the move.
    const stats = (await alice.get(`/api/trades/stats?account=${to.id}&days=none`)).body;
    expect(stats.summary.trades).toBe(4);

    const undone = conforms(bulkRestoreResult, await alice.post('/api/trades/bulk-restore', { trades: moved.before }));
    expect(undone.restored).toBe(3);
    const after = await byId(alice);
    for (const id of moving) expect(pick(after.get(id)!)).toEqual(pick(before.get(id)!));
    expect((await listAll(alice, `account=${to.id}`)).length).toBe(1);
  });

  it('a bulk action that fails changes nothing: an Undo meeting a trade imported again, and a playbook that is not there', async () => {
    const from = await createAccount(alice, 'Source');
    const to = await createAccount(alice, 'Target');
    const keys = [randomUUID(), randomUUID()];
    await importTrades(alice, from.id, backupRows(keys, '2025-06-10'));
    const ids = (await listAll(alice, `account=${from.id}`)).map((t) => t.id);
    const tagged = conforms(bulkEditResult, await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'add_tags', tags: ['Moved'] } }));
    expect(tagged.updated).toBe(2);
    const moved = conforms(bulkEditResult, await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'move', account_id: to.id } }));
    expect(moved.updated).toBe(2);
    // The same file imported into the source again: one of its trades is there again, so that one cannot go back.
    await importTrades(alice, from.id, backupRows(keys.slice(1), '2025-06-10'));
    const before = await byId(alice);
    // Undo of the move and of the tags in one request: the tags' part would succeed, the move's cannot.
    const undo = [...moved.before.map((s) => ({ ...s, tags: tagged.before.find((t) => t.id === s.id)!.tags }))];
    const refused = await alice.post('/api/trades/bulk-restore', { trades: undo });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    const after = await byId(alice);
    for (const id of ids) expect(pick(after.get(id)!)).toEqual(pick(before.get(id)!));
    expect(after.get(ids[0]!)!.tags).toEqual(['A+', 'Moved']);

    const missing = await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'playbook', playbook_id: randomUUID() } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('action.playbook_id: Playbook not found');
    const unknownAccount = await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'move', account_id: randomUUID() } });
    expect(unknownAccount.status).toBe(400);
    const unchanged = await byId(alice);
    for (const id of ids) expect(pick(unchanged.get(id)!)).toEqual(pick(before.get(id)!));
  });

  it("another trader's trade ids change nothing, theirs or the caller's, and answer 404", async () => {
    const mine = await createTrade(alice, { date: '2025-07-01', symbol: 'NQ', pnl: 20, tags: ['Mine'] });
    const bobAccount = await createAccount(bob, 'Bob account');
    const theirs = await createTrade(bob, { account_id: bobAccount.id, date: '2025-07-01', symbol: 'NQ', pnl: 30, tags: ['Theirs'] });
    const aliceAccount = await createAccount(alice, 'Alice target');
    for (const action of [
      { kind: 'add_tags', tags: ['Hijacked'] },
      { kind: 'remove_tags', tags: ['Theirs'] },
      { kind: 'setup', setup: 'Stolen' },
      { kind: 'move', account_id: aliceAccount.id },
      { kind: 'playbook', playbook_id: null },
    ]) {
      const res = await alice.post('/api/trades/bulk-edit', { ids: [mine.id, theirs.id], action });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    }
    // Bob's account is not Alice's to move into.
    const intoTheirs = await alice.post('/api/trades/bulk-edit', { ids: [mine.id], action: { kind: 'move', account_id: bobAccount.id } });
    expect(intoTheirs.status).toBe(400);
    // An Undo naming another trader's trade writes nothing either.
    const restore = await alice.post('/api/trades/bulk-restore', {
      trades: [{ id: theirs.id, account_id: null, playbook_id: null, trade_type: 'Stolen', tags: [], ticked_rule_ids: [], followed_rules: null }],
    });
    expect(restore.status).toBe(404);
    const bobs = (await bob.get(`/api/trades/${theirs.id}`)).body as TradeDto;
    expect(pick(bobs)).toEqual({ account_id: bobAccount.id, trade_type: theirs.trade_type, tags: ['Theirs'] });
    const own = (await alice.get(`/api/trades/${mine.id}`)).body as TradeDto;
    expect(pick(own)).toEqual(pick(mine));
  });

  it('assigns a playbook, a setup and tags in bulk; Undo restores each trade exactly, its ticked rules and Reflect answer too', async () => {
    const account = await createAccount(alice, 'Playbook account');
    const a = await createTrade(alice, { account_id: account.id, date: '2025-08-01', symbol: 'NQ', pnl: 40, trade_type: 'Reversal', tags: ['fomo'] });
    const b = await createTrade(alice, { account_id: account.id, date: '2025-08-02', symbol: 'NQ', pnl: -15, tags: [] });
    const c = await createTrade(alice, { account_id: account.id, date: '2025-08-03', symbol: 'NQ', pnl: 7, tags: ['News', 'A+'] });
    const first = (
      await alice.post('/api/playbooks', { name: 'Opening drive', rules: [{ text: 'Wait for the open' }, { text: 'Volume above average' }] })
    ).body;
    const second = (await alice.post('/api/playbooks', { name: 'Failed breakout', rules: [{ text: 'Trap above the high' }] })).body;
    const ruleIds = (first.rules as Array<{ id: string }>).map((r) => r.id);
    const ticked = await alice.put(`/api/trade-playbooks/${a.id}`, { playbook_id: first.id, ticked_rule_ids: ruleIds });
    expect(ticked.status).toBe(200);
    const ids = [a.id, b.id, c.id];
    const playbookOf = async (id: string) => (await alice.get(`/api/trade-playbooks/${id}`)).body;
    const before = await Promise.all(ids.map(playbookOf));
    expect(before[0]).toMatchObject({ playbook_id: first.id, followed_rules: true });

    const assigned = conforms(
      bulkEditResult,
      await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'playbook', playbook_id: second.id } }),
    );
    expect(assigned.updated).toBe(3);
    for (const id of ids) expect(await playbookOf(id)).toMatchObject({ playbook_id: second.id, ticked_rule_ids: [], followed_rules: false });
    // The playbook's report counts them.
    const report = (await alice.get(`/api/playbooks/${second.id}/report`)).body;
    expect(JSON.stringify(report)).toContain('"trades":3');

    const undone = await alice.post('/api/trades/bulk-restore', { trades: assigned.before });
    expect(undone.status).toBe(200);
    expect(await Promise.all(ids.map(playbookOf))).toEqual(before);

    const setup = conforms(bulkEditResult, await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'setup', setup: 'Breakout' } }));
    expect(setup.updated).toBe(3);
    const added: BulkEditResult = conforms(
      bulkEditResult,
      await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'add_tags', tags: ['FOMO', 'Late'] } }),
    );
    // "fomo" is the same tag as FOMO: a, b and c all get Late.
    expect(added.updated).toBe(3);
    const tagsNow = await byId(alice);
    expect([a, b, c].map((t) => tagsNow.get(t.id)!.tags)).toEqual([
      ['fomo', 'Late'],
      ['FOMO', 'Late'],
      ['News', 'A+', 'FOMO', 'Late'],
    ]);
    const removed = conforms(
      bulkEditResult,
      await alice.post('/api/trades/bulk-edit', { ids, action: { kind: 'remove_tags', tags: ['late', 'news'] } }),
    );
    expect(removed.updated).toBe(3);
    const tagsAfter = await byId(alice);
    expect([a, b, c].map((t) => tagsAfter.get(t.id)!.tags)).toEqual([['fomo'], ['FOMO'], ['A+', 'FOMO']]);
    // Undo, newest first: back to the trades as they were made.
    for (const step of [removed, added, setup]) expect((await alice.post('/api/trades/bulk-restore', { trades: step.before })).status).toBe(200);
    const restored = await byId(alice);
    expect([a, b, c].map((t) => pick(restored.get(t.id)!))).toEqual([a, b, c].map(pick));
  });

  it("Select All's ids are every trade of the filter and search, not the rows drawn", async () => {
    const account = await createAccount(alice, 'Select all');
    for (let i = 0; i < 8; i++)
      await createTrade(alice, { account_id: account.id, date: `2025-09-0${i + 1}`, symbol: i % 2 ? 'ES' : 'NQ', pnl: i - 3 });
    const all = conforms(tradeIds, await alice.get(`/api/trades/ids?account=${account.id}`));
    expect(all.total).toBe(8);
    const listed = await listAll(alice, `account=${account.id}`);
    expect(all.ids).toEqual(listed.map((t) => t.id));
    const es = conforms(tradeIds, await alice.get(`/api/trades/ids?account=${account.id}&symbol=ES`));
    expect(es.ids.sort()).toEqual(
      listed
        .filter((t) => t.symbol === 'ES')
        .map((t) => t.id)
        .sort(),
    );
    // None of another trader's.
    expect(conforms(tradeIds, await bob.get(`/api/trades/ids?account=${account.id}`)).ids).toEqual([]);
  });
});
