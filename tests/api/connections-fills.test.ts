import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type ApiClient } from '../support/app';
import { importFile } from './imports-support';
import { createAccount, listAll } from './trades-support';
import {
  account,
  dayOf,
  KEY,
  MNQ,
  plus,
  roundTrip,
  startConnectedApp,
  syncNow,
  topstepxExport,
  weekdayAgo,
  type ConnectedApp,
} from './connections-support';

/**
 * A synced trade is stored through the trades' one write path with the gateway's own executions: its fills are the
 * half-turns the gateway reported (sizes, prices, times to the millisecond, fees), so its page lists them and its chart
 * marks them. A trade first imported from a file and then seen by the sync ends with the most precise data of both:
 * the gateway's fills and times replace the export's, and nothing is stored twice.
 */
describe.each(backends())('fills of synced trades on %s', (backend) => {
  let ctx: ConnectedApp;
  let alice: ApiClient;
  const day = weekdayAgo(4);

  beforeAll(async () => {
    ctx = await startConnectedApp(backend);
    ctx.px.accounts = [account(3001, '50KTC-V2-3001', 'alice.px'), account(3002, '50KTC-V2-3002', 'alice.px')];
    alice = await ctx.trader('alice-fills');
  });
  afterAll(() => ctx?.close());

  async function connectAndMap(externalName: string, journalId: string, from: string) {
    const connected = await alice.post('/api/connections', { user_name: 'alice.px', api_key: KEY });
    const connection = connected.status === 201 ? connected.body : (await alice.get('/api/connections')).body.connections[0];
    const broker = connection.accounts.find((a: { name: string }) => a.name === externalName);
    const mapped = await alice.patch(`/api/connections/${connection.id}/broker-accounts/${broker.id}`, { account_id: journalId, sync_from: from });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    return connection.id as string;
  }

  it("keeps the gateway's half-turns as the trade's fills", async () => {
    const journal = await createAccount(alice, 'Synced fills');
    // A scale-in and a scale-out: four half-turns of one trade.
    const halfTurns = roundTrip(3001, MNQ, {
      side: 'Long',
      entries: [
        [2, 20000, plus(day, 0, 0, 125)],
        [1, 20002.25, plus(day, 1, 7, 480)],
      ],
      exits: [
        [1, 20006, plus(day, 4, 2, 9)],
        [2, 20008.5, plus(day, 6, 30, 777)],
      ],
    });
    ctx.px.trades.push(...halfTurns);
    const connectionId = await connectAndMap('50KTC-V2-3001', journal.id, dayOf(day));
    expect((await syncNow(ctx, alice, connectionId)).last_outcome).toMatchObject({ status: 'ok', added: 1 });

    const [trade] = await listAll(alice, `account=${journal.id}`);
    const fills = await alice.get(`/api/trades/${trade!.id}/fills`);
    expect(fills.status).toBe(200);
    expect(fills.body.editable).toBe(false);
    expect(fills.body.fills).toEqual(
      halfTurns.map((h) => ({
        time: new Date(h.creationTimestamp).toISOString(),
        side: h.side === 0 ? 'Buy' : 'Sell',
        quantity: String(h.size),
        price: String(h.price),
        commission: h.fees.toFixed(2),
      })),
    );
    // The trade page shows the same fills.
    expect((await alice.get(`/api/trade-details/${trade!.id}`)).body.fills).toEqual(fills.body.fills);
  });

  it("refines a trade first imported from the export with the gateway's fills and times, and stores it once", async () => {
    const journal = await createAccount(alice, 'Export then sync');
    const second = weekdayAgo(5);
    const entryAt = plus(second, 0, 12, 421);
    const exitAt = plus(second, 3, 9, 867);
    const csv = topstepxExport([{ contract: 'MNQM5', side: 'Long', size: 1, entry: [20100, entryAt], exit: [20104, exitAt], fees: 0.74 }]);
    const imported = await importFile(alice, { account_id: journal.id, format: 'topstepx-trades' }, csv);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const [before] = await listAll(alice, `account=${journal.id}`);
    // The export gives seconds only.
    expect(before!.entry_time).toBe(new Date(Math.floor(Date.parse(entryAt) / 1000) * 1000).toISOString());

    const halfTurns = roundTrip(3002, MNQ, { side: 'Long', entries: [[1, 20100, entryAt]], exits: [[1, 20104, exitAt]] });
    ctx.px.trades.push(...halfTurns);
    const connectionId = await connectAndMap('50KTC-V2-3002', journal.id, dayOf(second));
    expect((await syncNow(ctx, alice, connectionId)).last_outcome).toMatchObject({ status: 'ok', added: 0, duplicates: 1 });

    const after = await listAll(alice, `account=${journal.id}`);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before!.id);
    expect([after[0]!.entry_time, after[0]!.exit_time]).toEqual([entryAt, exitAt]);
    const fills = (await alice.get(`/api/trades/${before!.id}/fills`)).body.fills as Array<{ time: string; price: string }>;
    expect(fills.map((f) => [f.time, f.price])).toEqual([
      [entryAt, '20100'],
      [exitAt, '20104'],
    ]);
    // What the trader saw of its money is the export's (the same trade): unchanged.
    expect(after[0]!.pnl).toBe(before!.pnl);
  });
});
