import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUICK_LINKS } from '../../src/domain/links/quick-links';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { newTrader } from './trades-support';

/**
 * Quick links over HTTP: ordered by position then
 * created_at, new links last, reorder to index + 1, only http and https, the default links import and the legacy
 * browser list moved once.
 */
describe.each(backends())('quick links API on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  interface Link {
    id: string;
    title: string;
    url: string;
    icon: string | null;
    position: number;
  }
  const list = async (client: ApiClient): Promise<Link[]> => (await client.get('/api/quick-links')).body;
  const add = async (client: ApiClient, body: Record<string, unknown>): Promise<Link> => {
    const res = await client.post('/api/quick-links', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it('adds links last (position = last + 1), edits and deletes them', async () => {
    const trader = await newTrader(app, 'links');
    const tv = await add(trader, { title: 'TradingView', url: 'https://www.tradingview.com/', icon: 'chart' });
    const ff = await add(trader, { title: ' Forex Factory ', url: ' forexfactory.com/calendar ' });
    expect([tv.position, ff.position]).toEqual([1, 2]);
    expect(ff).toMatchObject({ title: 'Forex Factory', url: 'https://forexfactory.com/calendar', icon: null });

    const edited = await trader.patch(`/api/quick-links/${ff.id}`, { title: 'FF calendar' });
    expect(edited.body).toMatchObject({ title: 'FF calendar', url: 'https://forexfactory.com/calendar', position: 2 });
    expect((await trader.patch(`/api/quick-links/${tv.id}`, { icon: '' })).body.icon).toBeNull();

    expect((await trader.delete(`/api/quick-links/${tv.id}`)).status).toBe(204);
    expect((await trader.delete(`/api/quick-links/${tv.id}`)).status).toBe(404);
    const third = await add(trader, { title: 'CME', url: 'https://cmegroup.com' });
    expect(third.position).toBe(3);
    expect((await list(trader)).map((l) => l.title)).toEqual(['FF calendar', 'CME']);
  });

  it('only http and https addresses; every bad field is a 400 naming it', async () => {
    const trader = await newTrader(app, 'links');
    const link = await add(trader, { title: 'ok', url: 'https://ok.test' });
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/quick-links', { title: 'x', url: 'javascript:alert(document.cookie)' }, 'url: Only http and https addresses can be quick links'],
      ['POST', '/api/quick-links', { title: 'x', url: 'JAVASCRIPT:alert(1)' }, 'url: Only http and https addresses can be quick links'],
      [
        'POST',
        '/api/quick-links',
        { title: 'x', url: 'data:text/html,<script>alert(1)</script>' },
        'url: Only http and https addresses can be quick links',
      ],
      ['POST', '/api/quick-links', { title: 'x', url: 'ftp://files.test' }, 'url: Only http and https addresses can be quick links'],
      ['POST', '/api/quick-links', { title: 'x', url: '' }, 'url: URL is required'],
      ['POST', '/api/quick-links', { title: '  ', url: 'https://x.test' }, 'title: Title is required'],
      ['POST', '/api/quick-links', { url: 'https://x.test' }, 'title: Title is required'],
      ['POST', '/api/quick-links', { title: 'x'.repeat(101), url: 'https://x.test' }, 'title: must be at most 100 characters'],
      ['PATCH', `/api/quick-links/${link.id}`, { url: 'javascript:void(0)' }, 'url: Only http and https addresses can be quick links'],
      ['PATCH', '/api/quick-links/nope', { title: 'x' }, 'id: id must be a quick link id'],
      ['PATCH', `/api/quick-links/${link.id}`, {}, 'body: Nothing to update'],
      ['PATCH', `/api/quick-links/${link.id}`, { tag: 'x', quantity: null }, 'body: Nothing to update'],
      ['POST', '/api/quick-links/reorder', { ids: [] }, 'ids: ids: give the links in their new order'],
      ['POST', '/api/quick-links/reorder', { ids: [link.id, link.id] }, 'ids: ids must not repeat a link'],
      [
        'POST',
        '/api/quick-links/import',
        { links: [{ title: 'x', url: 'javascript:1' }] },
        'links.0.url: Only http and https addresses can be quick links',
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await trader.json(method, path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe(message);
    }
    expect(await list(trader)).toEqual([expect.objectContaining({ title: 'ok', url: 'https://ok.test' })]);
  });

  it('reorders: position = index + 1 for the given order, kept on reload', async () => {
    const trader = await newTrader(app, 'links');
    const [a, b, c] = [
      await add(trader, { title: 'A', url: 'https://a.test' }),
      await add(trader, { title: 'B', url: 'https://b.test' }),
      await add(trader, { title: 'C', url: 'https://c.test' }),
    ];
    const res = await trader.post('/api/quick-links/reorder', { ids: [c.id, a.id, b.id] });
    expect(res.status).toBe(200);
    expect(res.body.map((l: Link) => [l.title, l.position])).toEqual([
      ['C', 1],
      ['A', 2],
      ['B', 3],
    ]);
    expect((await list(trader)).map((l) => l.title)).toEqual(['C', 'A', 'B']);
    // A new link still goes last.
    expect((await add(trader, { title: 'D', url: 'https://d.test' })).position).toBe(4);
  });

  it('links at the same position list by creation time', async () => {
    const trader = await newTrader(app, 'links');
    const imported = await trader.post('/api/quick-links/import', {
      links: [
        { title: 'one', url: 'https://1.test' },
        { title: 'two', url: 'https://2.test' },
      ],
    });
    expect(imported.body.imported).toBe(2);
    expect((await list(trader)).map((l) => [l.title, l.position])).toEqual([
      ['one', 1],
      ['two', 2],
    ]);
  });

  it('imports the default links once: again adds nothing; without a session the spec message', async () => {
    const trader = await newTrader(app, 'links');
    await add(trader, { title: 'Mine', url: 'https://mine.test' });
    const first = await trader.post('/api/quick-links/defaults');
    expect(first.status).toBe(200);
    expect(first.body.imported).toBe(DEFAULT_QUICK_LINKS.length);
    expect(first.body.links.map((l: Link) => l.title)).toEqual(['Mine', ...DEFAULT_QUICK_LINKS.map((l) => l.title)]);
    expect((await trader.post('/api/quick-links/defaults')).body.imported).toBe(0);

    const anonymous = await fetch(`${app.url}/api/quick-links/defaults`, { method: 'POST', headers: { origin: app.url } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'User must be authenticated to import default links' });
    expect((await fetch(`${app.url}/api/quick-links`)).status).toBe(401);
  });

  it('moves the legacy browser list once: two tabs importing at once, or a trader who has links, add nothing more', async () => {
    const trader = await newTrader(app, 'links');
    const legacy = [
      { title: 'TV', url: 'https://tradingview.com', icon: 'chart' },
      { title: 'News', url: 'https://news.test' },
    ];
    const results = await Promise.all([1, 2, 3].map(() => trader.post('/api/quick-links/import', { links: legacy, only_if_empty: true })));
    expect(results.map((r) => r.body.imported).sort()).toEqual([0, 0, 2]);
    expect((await list(trader)).map((l) => [l.title, l.position, l.icon])).toEqual([
      ['TV', 1, 'chart'],
      ['News', 2, null],
    ]);
  });

  it("another trader's link ids are not found, and never reordered", async () => {
    const alice = await newTrader(app, 'alice');
    const bob = await newTrader(app, 'bob');
    const hers = await add(alice, { title: 'Alice', url: 'https://alice.test' });
    const his = await add(bob, { title: 'Bob', url: 'https://bob.test' });
    expect((await bob.patch(`/api/quick-links/${hers.id}`, { title: 'pwned', url: 'https://evil.test' })).status).toBe(404);
    expect((await bob.delete(`/api/quick-links/${hers.id}`)).status).toBe(404);
    const reorder = await bob.post('/api/quick-links/reorder', { ids: [hers.id, his.id] });
    expect(reorder.status).toBe(400);
    expect(reorder.body.error).toBe('ids: Quick link not found');
    expect(await list(alice)).toEqual([hers]);
    expect(await list(bob)).toEqual([his]);
  });
});
