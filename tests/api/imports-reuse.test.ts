import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCount } from '../../src/server/core/parse/parse-pool';
import { backends, startTestApp, type TestApp } from '../support/app';
import { tradovateOrdersCsv } from '../support/broker-files';
import { importFile, previewFile } from './imports-support';
import { createAccount, listAll, newTrader } from './trades-support';

/**
 * The import's speed: confirming a preview sends the same file again, and the server imports it from the
 * parse the preview made (kept in its worker) instead of reading every row a second time. Reuse must never change
 * what is stored: another file, other options, another trader or a changed setting is parsed afresh.
 */
const FILE = tradovateOrdersCsv(400);
const ZONE = { time_zone: 'America/New_York' };

describe.each(backends())('a previewed file on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('is imported from the preview’s parse, and only for the same bytes, options and trader', { timeout: 60_000 }, async () => {
    const alice = await newTrader(app, 'reuse-a');
    const account = await createAccount(alice, 'Reuse');
    const query = { ...ZONE, account_id: account.id };

    let before = parseCount();
    const preview = await previewFile(alice, query, FILE);
    expect(preview.status).toBe(200);
    expect(parseCount()).toBe(before + 1);
    const done = await importFile(alice, query, FILE);
    expect(done.status, JSON.stringify(done.body).slice(0, 300)).toBe(200);
    expect(parseCount(), 'the confirmation parsed the file again').toBe(before + 1);
    expect(done.body.imported).toBe(preview.body.new_trades);
    const stored = await listAll(alice, `account_id=${account.id}`);
    expect(stored).toHaveLength(preview.body.new_trades);
    // The preview lists every trade of so small a file: the rows stored are those trades, to the cent and second.
    const row = (t: Record<string, unknown>) => `${String(t.entry_time)}|${String(t.contract)}|${String(t.pnl)}`;
    expect(stored.map(row).sort()).toEqual(preview.body.trades.map(row).sort());

    // Freed once imported (a kept file holds its worker's memory): importing it again parses it
    // again and finds every trade already there.
    const again = await importFile(alice, query, FILE);
    expect(again.body).toMatchObject({ imported: 0, duplicates: preview.body.new_trades });
    expect(parseCount(), 'the committed import kept its file').toBe(before + 2);

    // Another trader sending the same bytes with the same options gets a parse of their own, and their own rows.
    const bob = await newTrader(app, 'reuse-b');
    const bobs = await createAccount(bob, 'Bob');
    before = parseCount();
    await previewFile(bob, { ...ZONE, account_id: bobs.id }, FILE);
    expect(parseCount(), 'one trader’s kept parse served another').toBe(before + 1);
    const bobImport = await importFile(bob, { ...ZONE, account_id: bobs.id }, FILE);
    expect(bobImport.body.imported).toBe(preview.body.new_trades);
    expect(parseCount()).toBe(before + 1);
    const bobsRows = await listAll(bob, `account_id=${bobs.id}`);
    expect(bobsRows).toHaveLength(preview.body.new_trades);
    expect(bobsRows.every((t) => t.account_id === bobs.id)).toBe(true);
    expect(await listAll(alice, `account_id=${account.id}`)).toHaveLength(preview.body.new_trades);

    // One byte different: parsed afresh, and what is stored is that file's.
    before = parseCount();
    const edited = FILE.replace(/\n([^\n]*)$/, '\n$1 ');
    expect(edited).not.toBe(FILE);
    expect((await importFile(alice, query, edited)).status).toBe(200);
    expect(parseCount()).toBe(before + 1);

    // Other options (the file's time zone): parsed afresh.
    before = parseCount();
    await previewFile(alice, { ...query, time_zone: 'Europe/London' }, FILE);
    expect(parseCount()).toBe(before + 1);

    // A changed setting the parse reads (the trading day): parsed afresh.
    await previewFile(alice, query, FILE);
    expect((await alice.patch('/api/preferences', { trading_day: 'calendar' })).status).toBe(200);
    before = parseCount();
    await importFile(alice, query, FILE);
    expect(parseCount()).toBe(before + 1);
  });

  it('keeps only a trader’s latest file: an older one is parsed again', { timeout: 60_000 }, async () => {
    const trader = await newTrader(app, 'reuse-c');
    const account = await createAccount(trader, 'Latest');
    const query = { ...ZONE, account_id: account.id };
    const other = tradovateOrdersCsv(60);
    await previewFile(trader, query, FILE);
    await previewFile(trader, query, other);
    const before = parseCount();
    await importFile(trader, query, other);
    expect(parseCount()).toBe(before);
    await importFile(trader, query, FILE);
    expect(parseCount()).toBe(before + 1);
  });

  it('does not keep a file that could not be read', { timeout: 60_000 }, async () => {
    const trader = await newTrader(app, 'reuse-d');
    const account = await createAccount(trader, 'Bad');
    const query = { ...ZONE, account_id: account.id };
    const before = parseCount();
    expect((await previewFile(trader, query, 'not,a,known\nformat,at,all\n')).status).toBe(400);
    expect((await importFile(trader, query, 'not,a,known\nformat,at,all\n')).status).toBe(400);
    expect(parseCount()).toBe(before + 2);
  });
});
