import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRenderCount } from '../../src/server/features/sharing/preview-png';
import { createRateLimiter } from '../../src/server/http/rate-limit';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { PNG_BYTES, uploadAttachment } from './notes-support';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * What a shared link carries besides figures, over HTTP on both databases: a trade's images and a day's journal entry
 * (only when the link includes notes, and only through the link that shows them), the preview as a PNG that chat apps
 * draw, and the guessing limit kept in the database so that every server process spends one bucket per client.
 */
describe.each(backends())('share links: images, journal text, PNG preview and a shared limit on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let accountName: string;
  let trade: string;
  let otherTrade: string;
  let tradeImage: { id: string; url: string };
  let otherImage: { id: string };
  let journalImage: { id: string };
  // A day of its own per database: the preview cards then differ, so each run renders its own (they are cached by text).
  const DAY = backend === 'pglite' ? '2026-04-07' : '2026-04-08';
  const JOURNAL = 'Waited for the <b>retest</b> & took it: "patient" day.';

  const visit = async (path: string, visitor = app.client()) => {
    const res = await visitor.request('GET', path);
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const text = async (path: string) => {
    const res = await visit(path);
    return { ...res, body: res.bytes.toString('utf8') };
  };
  const share = async (body: Record<string, unknown>) => {
    const res = await alice.post('/api/share-links', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; url: string };
  };
  const pathOf = (url: string) => new URL(url).pathname;
  const unknownPage = async () => (await text(`/s/${crypto.randomBytes(32).toString('base64url')}`)).body;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = await newTrader(app, 'share-content');
    accountName = `Funded 12 ${crypto.randomBytes(3).toString('hex')}`;
    const account = await createAccount(alice, accountName);
    // +$4,321.75 on a $1,000 plan: +4.32R.
    trade = (await createTrade(alice, { account_id: account.id, date: DAY, symbol: 'NQ', side: 'Long', risk_amount: 1000, pnl: 4321.75 })).id;
    otherTrade = (await createTrade(alice, { account_id: account.id, date: DAY, symbol: 'ES', side: 'Short', risk_amount: 1000, pnl: -250 })).id;
    const uploaded = await uploadAttachment(alice, { trade_id: trade }, PNG_BYTES);
    expect(uploaded.status).toBe(201);
    tradeImage = uploaded.body;
    const linked = await alice.post('/api/attachments', {
      trade_id: trade,
      url: 'https://charts.example.com/snap/abc.png',
      caption: 'The 5-minute chart',
    });
    expect(linked.status).toBe(201);
    otherImage = (await uploadAttachment(alice, { trade_id: otherTrade }, PNG_BYTES)).body;
    const saved = await alice.put(`/api/journal/${DAY}`, { content: JOURNAL });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    journalImage = (await uploadAttachment(alice, { note_id: (saved.body as { note: { id: string } }).note.id }, PNG_BYTES)).body;
  });
  afterAll(() => app?.close());

  it("shows a trade's images only with notes included, each served only through its own link, and none after revocation", async () => {
    const link = await share({ kind: 'trade', target: trade, include_notes: true });
    const page = await text(pathOf(link.url));
    expect(page.status).toBe(200);
    const src = `${link.url}/image/${tradeImage.id}`;
    expect(page.body).toContain(`<img src="${src}"`);
    // An image kept on another site is a link to it, not loaded by the page.
    expect(page.body).toContain('<a href="https://charts.example.com/snap/abc.png" rel="noopener noreferrer nofollow">The 5-minute chart</a>');
    expect(page.body).not.toContain('<img src="https://charts.example.com');
    // Not the trader's own upload address, which only a signed-in owner may read.
    expect(page.body).not.toContain(tradeImage.url);

    const image = await visit(pathOf(src));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('no-store');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.bytes.equals(PNG_BYTES)).toBe(true);

    const unknown = await unknownPage();
    const refused = async (path: string) => {
      const answer = await text(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toBe(unknown);
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
    };
    // Another trade's image, the day's journal image and a made-up id, through this trade's link.
    await refused(`${pathOf(link.url)}/image/${otherImage.id}`);
    await refused(`${pathOf(link.url)}/image/${journalImage.id}`);
    await refused(`${pathOf(link.url)}/image/${crypto.randomUUID()}`);
    await refused(`${pathOf(link.url)}/image/not-an-id`);
    // The same trade shared without notes shows no image and serves none.
    const plain = await share({ kind: 'trade', target: trade });
    const plainPage = await text(pathOf(plain.url));
    expect(plainPage.body).not.toContain('/image/');
    expect(plainPage.body).not.toContain('charts.example.com');
    await refused(`${pathOf(plain.url)}/image/${tradeImage.id}`);
    // A made-up token with a real image id.
    await refused(`/s/${crypto.randomBytes(32).toString('base64url')}/image/${tradeImage.id}`);

    expect((await alice.delete(`/api/share-links/${link.id}`)).status).toBe(204);
    await refused(pathOf(src));
  });

  it("shows a day's journal text (escaped) and its images only when the link includes notes", async () => {
    const withNotes = await share({ kind: 'day', target: DAY, include_notes: true, hide_amounts: true, hide_accounts: true });
    const page = await text(pathOf(withNotes.url));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Waited for the &lt;b&gt;retest&lt;/b&gt; &amp; took it: &quot;patient&quot; day.');
    expect(page.body).not.toContain('<b>retest');
    expect(page.body).toContain(`<img src="${withNotes.url}/image/${journalImage.id}"`);
    expect((await visit(`${pathOf(withNotes.url)}/image/${journalImage.id}`)).status).toBe(200);
    // A day's link serves the journal's images, not the day's trades' own.
    expect((await visit(`${pathOf(withNotes.url)}/image/${tradeImage.id}`)).status).toBe(404);
    // What the link hides stays hidden beside the journal.
    expect(page.body).not.toContain('$');
    expect(page.body).not.toContain(accountName);

    const without = await text(pathOf((await share({ kind: 'day', target: DAY })).url));
    expect(without.status).toBe(200);
    expect(without.body).toContain('+$4,071.75');
    expect(without.body).not.toContain('retest');
    expect(without.body).not.toContain('/image/');
  });

  it('gives chat apps a 1200 by 630 PNG preview, rendered once for a burst, with nothing the link hides in its source', async () => {
    const hidden = await share({ kind: 'trade', target: trade, hide_amounts: true, hide_accounts: true });
    const page = await text(pathOf(hidden.url));
    // The PNG comes first: chat apps take the first image.
    const firstImage = page.body.match(/<meta property="og:image" content="([^"]+)"><meta property="og:image:type" content="([^"]+)">/);
    expect(firstImage?.slice(1)).toEqual([`${hidden.url}/preview.png`, 'image/png']);
    expect(page.body).toContain(`<meta name="twitter:image" content="${hidden.url}/preview.png">`);

    const before = previewRenderCount();
    const burst = await Promise.all([1, 2, 3, 4].map(() => visit(`${pathOf(hidden.url)}/preview.png`)));
    expect(previewRenderCount() - before).toBe(1);
    for (const answer of burst) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.bytes.equals(burst[0]!.bytes)).toBe(true);
    }
    const png = burst[0]!.bytes;
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);

    // The PNG is drawn from this source: the R multiple is there, no dollar figure and no account name.
    const source = await text(`${pathOf(hidden.url)}/preview`);
    expect(source.body).toContain('+4.32R');
    expect(source.body).not.toContain('$');
    expect(source.body).not.toMatch(/4,?321/);
    expect(source.body).not.toContain(accountName);
    // The card with amounts shown is another picture (its words are drawn: fonts were found).
    const open = await share({ kind: 'trade', target: trade });
    expect((await text(`${pathOf(open.url)}/preview`)).body).toContain('+$4,321.75');
    const openPng = await visit(`${pathOf(open.url)}/preview.png`);
    expect(openPng.status).toBe(200);
    expect(openPng.bytes.equals(png)).toBe(false);

    expect((await alice.delete(`/api/share-links/${hidden.id}`)).status).toBe(204);
    const revoked = await text(`${pathOf(hidden.url)}/preview.png`);
    expect(revoked.status).toBe(404);
    expect(revoked.body).toBe(await unknownPage());
  });

  it('spends one bucket per key across limiters on one database, stores only hashes, and prunes full buckets', async () => {
    const database = app.server.database;
    const name = `test-${crypto.randomBytes(4).toString('hex')}`;
    const rate = { capacity: 4, refillMs: 60_000 };
    // Two server processes' limiters on the same database.
    const first = createRateLimiter(database, name, rate);
    const second = createRateLimiter(database, name, rate);
    const waits: number[] = [];
    for (const limiter of [first, second, first, second, first, second]) waits.push(await limiter.take('203.0.113.9'));
    expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(waits[4]).toBeGreaterThan(0);
    expect(waits[5]).toBeGreaterThan(0);
    // Another key has its own bucket.
    expect(await second.take('203.0.113.10')).toBe(0);

    const rows = async () => ((await database.db.execute(sql`select key from rate_limits`)) as unknown as { rows: Array<{ key: string }> }).rows;
    const keys = (await rows()).map((r) => r.key);
    expect(JSON.stringify(keys)).not.toContain('203.0.113');
    const hashOf = (key: string) => crypto.createHash('sha256').update(`${name}\n${key}`).digest('base64url');
    expect(keys).toContain(hashOf('203.0.113.9'));

    // A bucket last used an hour ago is full again: a limiter's next prune deletes it, and keeps the others.
    const stale = createRateLimiter(database, name, { capacity: 4, refillMs: 1_000 });
    expect(await stale.take('198.51.100.1', Date.now() - 3_600_000)).toBe(0);
    expect((await rows()).map((r) => r.key)).toContain(hashOf('198.51.100.1'));
    expect(await createRateLimiter(database, name, rate).take('198.51.100.2')).toBe(0);
    const after = (await rows()).map((r) => r.key);
    expect(after).not.toContain(hashOf('198.51.100.1'));
    expect(after).toContain(hashOf('203.0.113.9'));

    // Only the server's owner connection reaches the table.
    const [grant] = (
      (await database.db.execute(
        sql`select has_table_privilege('edgebook_app', 'public.rate_limits', 'SELECT, INSERT, UPDATE, DELETE') as any`,
      )) as unknown as { rows: Array<{ any: boolean }> }
    ).rows;
    expect(grant!.any).toBe(false);
  });

  it.runIf(backend === 'postgres')('two servers on one PostgreSQL spend one guessing burst between them', async ({ onTestFinished }) => {
    const other = await startTestApp({ backend, env: { DATABASE_URL: app.server.config.DATABASE_URL! } });
    onTestFinished(() => other.close());
    const address = '127.0.77.7';
    const guess = async (server: TestApp) =>
      (await server.client({ address }).request('GET', `/s/${crypto.randomBytes(32).toString('base64url')}`)).status;
    const started = Date.now();
    const statuses: number[] = [];
    // The burst is 30: 20 guesses at each server.
    for (let i = 0; i < 20; i++) statuses.push(await guess(app));
    for (let i = 0; i < 20; i++) statuses.push(await guess(other));
    const refills = Math.ceil((Date.now() - started) / 2_000);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    const allowed = statuses.filter((s) => s === 404).length;
    expect(allowed).toBeGreaterThanOrEqual(30);
    expect(allowed).toBeLessThanOrEqual(30 + refills);
    expect(statuses.slice(20).filter((s) => s === 429).length).toBeGreaterThanOrEqual(10 - refills);
    expect(statuses.at(-1)).toBe(429);
  });
});
