import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { tradovateExports } from '../support/broker-files';
import { importFile } from './imports-support';
import { cents, createAccount, createTrade, listAll, newTrader } from './trades-support';

/**
 * Two changes of one record at the same moment must both land. A service that read the row, merged
 * and wrote every column back kept only one of them on PostgreSQL (20 of 20 rounds for a trade's notes and P&L).
 * And point 9: a new trader's concurrent requests that create something at most once (the first chat session, a
 * recurring task's copy for a day, a trade option) create it once. Each runs 20 rounds of requests sent at once.
 */

const ROUNDS = 20;

/**
 * A Tradovate Performance export (as ../shared/fixtures/brokers has them) of `ROUNDS + 1` micro round trips entered
 * at 19:00 New York, Monday to Thursday evenings: each belongs to the next day's CME session, or to its calendar day.
 */
function eveningTrades(): string {
  const lines = [
    'symbol,_priceFormat,_priceFormatType,_tickSize,buyFillId,sellFillId,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,duration',
  ];
  const day = new Date(Date.UTC(2026, 0, 5));
  for (let i = 0; lines.length <= ROUNDS + 1; day.setUTCDate(day.getUTCDate() + 1)) {
    if (day.getUTCDay() === 0 || day.getUTCDay() >= 5) continue;
    const date = `${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')}/${day.getUTCFullYear()}`;
    const buy = 21000 + i * 4;
    lines.push(`MNQH6,-2,0,0.25,${900 + 2 * i},${901 + 2 * i},1,${buy}.00,${buy + 5}.00,$10.00,${date} 19:00:05,${date} 19:05:10,5min5sec`);
    i++;
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Two (or more) requests at the same moment, each answered. */
const atOnce = <T extends readonly unknown[]>(...requests: { [K in keyof T]: Promise<T[K]> }) => Promise.all(requests);

describe.each(backends())('concurrent changes on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('keeps both fields of two PATCHes of one trade, and the result follows the stored P&L', async () => {
    const trader = await newTrader(app);
    const trade = await createTrade(trader, { symbol: 'MNQ', pnl: '50.00', notes: 'first' });
    for (let i = 0; i < ROUNDS; i++) {
      const notes = `round ${i}`;
      const pnl = i % 2 === 0 ? `${101 + i}.00` : `-${101 + i}.00`;
      const [a, b] = await atOnce(trader.patch(`/api/trades/${trade.id}`, { notes }), trader.patch(`/api/trades/${trade.id}`, { pnl }));
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
      const stored = (await trader.get(`/api/trades/${trade.id}`)).body;
      expect({ notes: stored.notes, pnl: stored.pnl, status: stored.status }, `round ${i}`).toEqual({
        notes,
        pnl,
        status: i % 2 === 0 ? 'Win' : 'Loss',
      });
    }
  });

  it('keeps the title and the body of two PATCHes of one note', async () => {
    const trader = await newTrader(app);
    const note = (await trader.post('/api/notes', { title: 'Plan', content: 'start' })).body;
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = await atOnce(
        trader.patch(`/api/notes/${note.id}`, { title: `Plan ${i}` }),
        trader.patch(`/api/notes/${note.id}`, { content: `body ${i}` }),
      );
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await trader.get(`/api/notes/${note.id}`)).body;
      expect({ title: stored.title, content: stored.content }, `round ${i}`).toEqual({ title: `Plan ${i}`, content: `body ${i}` });
    }
  });

  it('keeps the name and the description of two PATCHes of one trading account', async () => {
    const trader = await newTrader(app);
    const account = await createAccount(trader, 'Eval');
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = await atOnce(
        trader.patch(`/api/accounts/${account.id}`, { name: `Eval ${i}` }),
        trader.patch(`/api/accounts/${account.id}`, { description: `phase ${i}` }),
      );
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await trader.get('/api/accounts')).body.find((x: { id: string }) => x.id === account.id);
      expect({ name: stored.name, description: stored.description }, `round ${i}`).toEqual({ name: `Eval ${i}`, description: `phase ${i}` });
    }
  });

  it('keeps two preferences changed at once', async () => {
    const trader = await newTrader(app);
    for (let i = 0; i < ROUNDS; i++) {
      const theme = i % 2 === 0 ? 'dark' : 'light';
      const [a, b] = await atOnce(trader.patch('/api/preferences', { theme }), trader.patch('/api/preferences', { quick_note: `note ${i}` }));
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await trader.get('/api/preferences')).body;
      expect({ theme: stored.theme, quick_note: stored.quick_note }, `round ${i}`).toEqual({ theme, quick_note: `note ${i}` });
    }
  });

  it('keeps the first and last name of two profile changes', async () => {
    const trader = await newTrader(app);
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = await atOnce(trader.patch('/api/profile', { first_name: `Ann${i}` }), trader.patch('/api/profile', { last_name: `Lee${i}` }));
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await trader.get('/api/profile')).body;
      expect({ first: stored.first_name, last: stored.last_name }, `round ${i}`).toEqual({ first: `Ann${i}`, last: `Lee${i}` });
    }
  });

  it("keeps a trade reflection's rule check and description changed at once", async () => {
    const trader = await newTrader(app);
    const trade = await createTrade(trader, { symbol: 'MES', pnl: '12.00' });
    for (let i = 0; i < ROUNDS; i++) {
      const followed = i % 2 === 0;
      const [a, b] = await atOnce(
        trader.patch(`/api/reflections/${trade.id}`, { followed_rules: followed }),
        trader.patch(`/api/reflections/${trade.id}`, { description: `why ${i}` }),
      );
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
      // A third change answers with the whole stored reflection.
      const last = (await trader.patch(`/api/reflections/${trade.id}`, { tags: [`t${i}`] })).body;
      expect({ followed: last.followed_rules, description: last.description, tags: last.tags }, `round ${i}`).toEqual({
        followed,
        description: `why ${i}`,
        tags: [`t${i}`],
      });
    }
  });

  it("keeps a task's new title and its completion, and a recurring task comes to a day once", async () => {
    const trader = await newTrader(app);
    const task = (await trader.post('/api/tasks', { title: 'Review', task_date: '2025-02-03' })).body;
    for (let i = 0; i < ROUNDS; i++) {
      const completed = i % 2 === 0;
      const [a, b] = await atOnce(
        trader.patch(`/api/tasks/${task.id}`, { title: `Review ${i}` }),
        trader.patch(`/api/tasks/${task.id}`, { completed }),
      );
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await trader.get('/api/tasks?date=2025-02-03')).body.find((t: { id: string }) => t.id === task.id);
      expect({ title: stored.title, completed: stored.completed }, `round ${i}`).toEqual({ title: `Review ${i}`, completed });
    }

    // Listing a past day copies the recurring tasks onto it: two lists of the day at once copy each once.
    expect((await trader.post('/api/tasks', { title: 'Journal the day', recurring: true, task_date: '2025-03-01' })).status).toBe(201);
    for (let i = 0; i < ROUNDS; i++) {
      const date = `2025-03-${String(i + 2).padStart(2, '0')}`;
      const [a, b] = await atOnce(trader.get(`/api/tasks?date=${date}`), trader.get(`/api/tasks?date=${date}`));
      expect([a.status, b.status]).toEqual([200, 200]);
      const titles = (await trader.get(`/api/tasks?date=${date}`)).body.map((t: { title: string }) => t.title);
      expect(titles, date).toEqual(['Journal the day']);
    }
  });

  it('adds a trade option once when the same name comes twice at once, and both of two different ones', async () => {
    const trader = await newTrader(app);
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = await atOnce(
        trader.post('/api/trade-preferences', { type: 'tag', value: `Breakout${i}` }),
        trader.post('/api/trade-preferences', { type: 'tag', value: `breakout${i}` }),
      );
      expect([a.status, b.status].sort(), JSON.stringify([a.body, b.body])).toEqual([201, 409]);
      const [c, d] = await atOnce(
        trader.post('/api/trade-preferences', { type: 'session', value: `Asia ${i}` }),
        trader.post('/api/trade-preferences', { type: 'trade_type', value: `Fade ${i}` }),
      );
      expect([c.status, d.status]).toEqual([201, 201]);
      const stored = (await trader.get('/api/trade-preferences')).body;
      expect(
        stored.tag.filter((t: string) => t.toLowerCase() === `breakout${i}`),
        `round ${i}`,
      ).toHaveLength(1);
      expect(stored.session, `round ${i}`).toContain(`Asia ${i}`);
      expect(stored.trade_type, `round ${i}`).toContain(`Fade ${i}`);
    }
  });

  it("keeps a trade's new tag when its account's fee schedule is applied at the same moment", async () => {
    const trader = await newTrader(app);
    const account = await createAccount(trader, 'Fees');
    // The Orders export has no costs: its trades' commissions come from the schedule.
    const imported = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, tradovateExports(12).orders);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const trade = (await listAll(trader)).find((t) => t.symbol.startsWith('MNQ'))!;
    const quantity = Number(trade.quantity);
    let tags = trade.tags;
    for (let i = 0; i < ROUNDS; i++) {
      const rate = 50 + i; // cents per contract per side
      expect((await trader.put(`/api/imports/fees/${account.id}`, { micro: `0.${rate}`, mini: '2.14' })).status).toBe(200);
      tags = [...tags, `mine${i}`];
      const [a, b] = await atOnce(trader.post(`/api/imports/fees/${account.id}/apply`), trader.patch(`/api/trades/${trade.id}`, { tags }));
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
      const stored = (await trader.get(`/api/trades/${trade.id}`)).body;
      expect(cents(stored.commission), `round ${i}: commission`).toBe(rate * quantity * 2);
      expect(cents(stored.pnl), `round ${i}: net`).toBe(cents(stored.gross_pnl) - rate * quantity * 2);
      expect(stored.tags, `round ${i}: tags`).toContain(`mine${i}`);
      tags = stored.tags;
    }
  });

  it('keeps a day set by hand while a change of the trading-day setting re-files the imported trades', async () => {
    const trader = await newTrader(app);
    const account = await createAccount(trader, 'Evening');
    const imported = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, eveningTrades());
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const trades = (await listAll(trader)).sort((a, b) => String(a.entry_time).localeCompare(String(b.entry_time)));
    expect(trades).toHaveLength(ROUNDS + 1);
    // Entered at 19:00 New York: the next day's CME session, or the calendar day.
    const dayUnder = (rule: string, trade: (typeof trades)[number]) => {
      const calendar = new Date(Date.parse(trade.entry_time as string) - 5 * 3_600_000).toISOString().slice(0, 10);
      return rule === 'calendar' ? calendar : new Date(Date.parse(`${calendar}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    };
    let rule = 'exchange';
    for (let i = 0; i < ROUNDS; i++) {
      rule = rule === 'exchange' ? 'calendar' : 'exchange';
      const handSet = `2025-06-${String(i + 1).padStart(2, '0')}`;
      const [a, b] = await atOnce(
        trader.patch('/api/preferences', { trading_day: rule }),
        trader.patch(`/api/trades/${trades[i]!.id}`, { date: handSet }),
      );
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
      expect((await trader.get(`/api/trades/${trades[i]!.id}`)).body.date, `round ${i}: the day set by hand`).toBe(handSet);
      expect((await trader.get(`/api/trades/${trades[i + 1]!.id}`)).body.date, `round ${i}: a trade left alone`).toBe(dayUnder(rule, trades[i + 1]!));
    }
  });

  it("saves a day's journal twice at once as one note", async () => {
    const trader = await newTrader(app);
    for (let i = 0; i < ROUNDS; i++) {
      const date = `2025-04-${String(i + 1).padStart(2, '0')}`;
      const [a, b] = await atOnce(
        trader.put(`/api/journal/${date}`, { content: `one ${i}` }),
        trader.put(`/api/journal/${date}`, { content: `two ${i}` }),
      );
      expect([a.status, b.status]).toEqual([200, 200]);
      const day = (await trader.get(`/api/journal/${date}`)).body;
      expect([`one ${i}`, `two ${i}`]).toContain(day.note.content);
    }
    const notes = (await trader.get('/api/notes?limit=100')).body.notes;
    expect(notes.filter((n: { journal_date: string | null }) => n.journal_date !== null)).toHaveLength(ROUNDS);
    expect((await trader.get('/api/note-folders')).body.map((f: { name: string }) => f.name)).toEqual(['Daily Journal']);
  });

  it("takes one of two first saves of a day's journal, each written on a day without a note, and refuses the other", async () => {
    // The browser sends the note it began from: none (null) on a day without one. Both began from none, so the second
    // to be saved would overwrite what the first saved without anyone seeing it: it is refused (409), as on a note.
    const trader = await newTrader(app);
    for (let i = 0; i < ROUNDS; i++) {
      const date = `2025-05-${String(i + 1).padStart(2, '0')}`;
      const [a, b] = await atOnce(
        trader.put(`/api/journal/${date}`, { content: `one ${i}`, base_updated_at: null }),
        trader.put(`/api/journal/${date}`, { content: `two ${i}`, base_updated_at: null }),
      );
      expect([a.status, b.status].sort(), `round ${i}: ${JSON.stringify([a.body, b.body])}`).toEqual([200, 409]);
      const saved = a.status === 200 ? `one ${i}` : `two ${i}`;
      expect((a.status === 409 ? a : b).body.code).toBe('note-changed');
      expect((await trader.get(`/api/journal/${date}`)).body.note.content, `round ${i}`).toBe(saved);
    }
  });

  it('stores one of two mistake lists sent at once, whole, never a mix of both', async () => {
    const trader = await newTrader(app);
    for (let i = 0; i < ROUNDS; i++) {
      const first = [`FOMO ${i}`, 'Moved stop'];
      const second = [`Oversized ${i}`, 'Revenge'];
      const [a, b] = await atOnce(trader.put('/api/mistake-tags', { tags: first }), trader.put('/api/mistake-tags', { tags: second }));
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await trader.get('/api/mistake-tags')).body.tags;
      expect([first, second], `round ${i}: ${JSON.stringify(stored)}`).toContainEqual(stored);
    }
  });

  it("gives a new trader's ten concurrent New Chats and first loads one empty session", async () => {
    for (let round = 0; round < 3; round++) {
      const trader: ApiClient = await newTrader(app);
      const created = await Promise.all(Array.from({ length: 10 }, () => trader.post('/api/chat/sessions')));
      expect(created.map((r) => r.status).sort(), JSON.stringify(created.map((r) => r.body))).toEqual([
        200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
      ]);
      expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
      expect((await trader.get('/api/chat/sessions')).body).toHaveLength(1);

      const other = await newTrader(app);
      const current = await Promise.all(Array.from({ length: 10 }, () => other.get('/api/chat/sessions/current')));
      expect(new Set(current.map((r) => r.body.id)).size, `round ${round}`).toBe(1);
      expect((await other.get('/api/chat/sessions')).body).toHaveLength(1);
    }
  });
});
