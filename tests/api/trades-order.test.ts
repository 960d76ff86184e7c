import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getTodayInZone } from '../../src/domain/dates';
import { summarizeTrades, type StatTrade } from '../../src/domain/stats';
import { sortByTradingOrder } from '../../src/domain/trades';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';
import { importFile, ownFile } from './imports-support';
import { cents, createAccount, createTrade, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * Point 1, over HTTP: every order of trades is the trading order (day, entry, exit, creation, id). The file
 * (src/domain/importers/fixtures/trading-order-day.csv) is one day, 10 June 2025, of 14 round trips whose results
 * alternate Loss, Win ... in the order they were entered, listed in another order; imported in one request they are
 * stored in one transaction with one creation time, which is what put them in random (id) order before. Three manual
 * wins the day before, written one after another, keep their creation order. Streaks, the current streak, the score's
 * consistency, every list and ReflectAI's tools must equal the domain's reading of the same trades.
 */
const DAY = '2025-06-10';
const NY = 'America/New_York';

const toStat = (t: TradeDto): StatTrade => ({
  tradeDate: t.date,
  status: t.status,
  pnlCents: cents(t.pnl),
  entryTime: t.entry_time as string | null,
  exitTime: t.exit_time as string | null,
  createdAt: t.created_at,
  id: t.id,
});

/** The trades newest first as the domain orders them. */
const newestFirst = (trades: TradeDto[]) =>
  sortByTradingOrder(
    trades.map((t) => ({
      ...t,
      tradeDate: t.date,
      entryTime: t.entry_time as string | null,
      exitTime: t.exit_time as string | null,
      createdAt: t.created_at,
    })),
  ).reverse();
const ids = (trades: Array<{ id: string }>) => trades.map((t) => t.id);

describe.each(backends())('the trading order on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;
  let trader: ApiClient;
  let account: { id: string };
  let all: TradeDto[];

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '200' }) });
    trader = await newTrader(app, 'order');
    account = await createAccount(trader, 'Order Combine');
    for (const note of ['first', 'second', 'third']) await createTrade(trader, { date: '2025-06-09', pnl: 25, notes: note, account_id: account.id });
    const res = await importFile(trader, { time_zone: NY, account_id: account.id }, ownFile('trading-order-day.csv'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.imported).toBe(14);
    all = await listAll(trader);
    expect(all).toHaveLength(17);
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });
  beforeEach(() => provider.clear());

  it('the imported trades share one creation time within a microsecond; their entry order is not their file order', () => {
    const imported = all.filter((t) => t.import_source);
    const created = new Set(imported.map((t) => t.created_at.slice(0, 19)));
    expect(created.size).toBe(1);
    const fileEntries = ownFile('trading-order-day.csv')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[10]);
    expect(fileEntries).not.toEqual([...fileEntries].sort());
  });

  it('lists newest first in the trading order, in pages that cut through the day, and the day dialog lists the same', async () => {
    expect(ids(all)).toEqual(ids(newestFirst(all)));
    const day = all.filter((t) => t.date === DAY);
    // Newest first: the 16:30 win first, the 02:15 loss last; 10:30 -> 10:45 before 10:30 -> 10:31.
    expect(day.map((t) => t.status)).toEqual(Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? 'Win' : 'Loss')));
    expect(day.map((t) => t.entry_time)[0]).toBe('2025-06-10T20:30:00.000Z');
    expect(day.slice(7, 9).map((t) => [t.entry_time, t.exit_time])).toEqual([
      ['2025-06-10T14:30:00.000Z', '2025-06-10T14:45:00.000Z'],
      ['2025-06-10T14:30:00.000Z', '2025-06-10T14:31:00.000Z'],
    ]);
    // The manual trades keep the order they were written in.
    expect(all.slice(14).map((t) => t.notes)).toEqual(['third', 'second', 'first']);
    expect(ids(await listAll(trader, '', 3))).toEqual(ids(all));
    expect(ids(await listAll(trader, `account=${account.id}`, 4))).toEqual(ids(all));
    const dialog = await trader.get(`/api/trades?from=${DAY}&to=${DAY}&limit=500`);
    expect(ids(dialog.body.trades)).toEqual(ids(day));
    // A jump to a row inside the day (the maximized table) lands on the same row.
    const jump = await trader.get('/api/trades?offset=6&limit=3');
    expect(ids(jump.body.trades)).toEqual(ids(all.slice(6, 9)));
  });

  it('streaks, the current streak, consistency and the score equal the domain on the trading order, from every path', async () => {
    const expected = summarizeTrades(all.map(toStat));
    // Worked out by hand: W W W (manual, 9 June), then L W L W ... W on 10 June.
    expect(expected.streaks).toEqual({ maxWinStreak: 3, maxLossStreak: 1, current: { result: 'Win', length: 1 } });
    const rollups = (await trader.get('/api/trades/stats')).body.summary;
    expect(rollups.streaks).toEqual(expected.streaks);
    expect(rollups.score).toEqual(expected.score);
    const inAccount = (await trader.get(`/api/trades/stats?account=${account.id}&days=none`)).body.summary;
    expect(inAccount.streaks).toEqual(expected.streaks);
    expect(inAccount.score.consistency).toBe(expected.score.consistency);
    // A search reads the matching trades' sequence itself: without the MES trade two wins meet (10:30 -> 10:31, 11:07).
    const searched = (await trader.get('/api/trades/stats?q=MNQ')).body.summary;
    const mnq = summarizeTrades(all.filter((t) => t.symbol === 'MNQ').map(toStat));
    expect(mnq.streaks.maxWinStreak).toBe(2);
    expect(searched.streaks).toEqual(mnq.streaks);
    expect(searched.score).toEqual(mnq.score);
    // A trade left out while its delete waits for Undo: its day is summed again from its trades, in the same order.
    const last = all[0]!;
    const without = (await trader.get(`/api/trades/stats?exclude=${last.id}`)).body.summary;
    expect(without.streaks).toEqual(summarizeTrades(all.slice(1).map(toStat)).streaks);
    expect(without.streaks.current).toEqual({ result: 'Loss', length: 1 });
  });

  it('the journal, Reflect and the trade page read the day in the same order', async () => {
    const day = all.filter((t) => t.date === DAY);
    const journal = await trader.get(`/api/journal/${DAY}`);
    expect(journal.status).toBe(200);
    expect(ids(journal.body.trades)).toEqual(ids(day));
    const offset = (Date.parse(`${getTodayInZone(new Date(), NY)}T12:00:00Z`) - Date.parse(`${DAY}T12:00:00Z`)) / 86_400_000;
    const reflect = await trader.get(`/api/reflections?period=day&offset=${offset}`);
    expect(reflect.status, JSON.stringify(reflect.body)).toBe(200);
    expect(reflect.body.reflections.map((r: { tradeId: string }) => r.tradeId)).toEqual(ids(day));
    // Previous is older, next is newer, by the trading order.
    const middle = (await trader.get(`/api/trade-details/${day[7]!.id}`)).body;
    expect([middle.previous_id, middle.next_id]).toEqual([day[8]!.id, day[6]!.id]);
  });

  it("ReflectAI's streaks and newest trades are the trading order's", async () => {
    const sessionId = (await trader.get('/api/chat/sessions/current')).body.id;
    provider.reply(
      {
        toolCalls: [
          { name: 'get_streaks', arguments: {} },
          { name: 'find_trades', arguments: { from: DAY, to: DAY, limit: 50 } },
        ],
      },
      { text: 'Here are your streaks.' },
      { text: 'Streaks' },
    );
    await postSse(trader, '/api/chat', { sessionId, message: 'What are my winning and losing streaks?' });
    const tools = provider
      .completions()[1]!
      .body.messages.filter((m: { role: string }) => m.role === 'tool')
      .map((m: { content: string }) => JSON.parse(m.content));
    const [streaks, found] = tools;
    expect(streaks).toMatchObject({ max_win_streak: 3, max_loss_streak: 1, current_streak: '1 wins in a row' });
    const entries = found.trades.map((t: { entry_time: string }) => Date.parse(t.entry_time.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')));
    expect(entries).toHaveLength(14);
    expect(entries).toEqual([...entries].sort((a: number, b: number) => b - a));
  });
});
