import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedView, savedViewList } from '../../src/contract/saved-views';
import { SAVED_VIEWS_MAX } from '../../src/domain/reports/saved-views';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { newTrader } from './trades-support';

/**
 * Saved report views over HTTP on both databases: a named Reports filter kept as the page writes it, names unique per
 * trader (a 409 that says so), at most SAVED_VIEWS_MAX of them, and another trader's views out of reach (404 alike for
 * reading, renaming and deleting).
 */
describe.each(backends())('saved views on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  const save = async (client: ApiClient, body: Record<string, unknown>) => {
    const res = await client.post('/api/saved-views', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return savedView.parse(res.body);
  };
  const list = async (client: ApiClient) => savedViewList.parse((await client.get('/api/saved-views')).body);

  it('saves a named filter as the Reports page writes it, lists by name, renames and deletes', async () => {
    const trader = await newTrader(app, 'views');
    // Lists in any order and defaults (range=all-time) come back as the page writes them.
    const nq = await save(trader, { name: '  NQ mornings ', filter: '?range=all-time&hour=9&symbol=NQ&hour=8' });
    expect(nq).toMatchObject({ name: 'NQ mornings', filter: 'symbol=NQ&hour=8&hour=9' });
    const shorts = await save(trader, { name: 'Shorts this month', filter: 'range=this-month&side=Short' });
    const all = await save(trader, { name: 'all trades' });
    expect(all.filter).toBe('');
    expect((await list(trader)).map((v) => v.name)).toEqual(['all trades', 'NQ mornings', 'Shorts this month']);

    const renamed = await trader.patch(`/api/saved-views/${shorts.id}`, { name: 'Short side' });
    expect(renamed.status).toBe(200);
    expect(savedView.parse(renamed.body)).toMatchObject({ id: shorts.id, name: 'Short side', filter: 'range=this-month&side=Short' });
    // Renaming a view to its own name in another case is no clash with itself.
    expect((await trader.patch(`/api/saved-views/${nq.id}`, { name: 'nq MORNINGS' })).status).toBe(200);

    expect((await trader.delete(`/api/saved-views/${all.id}`)).status).toBe(204);
    expect((await trader.delete(`/api/saved-views/${all.id}`)).status).toBe(404);
    expect((await list(trader)).map((v) => v.name)).toEqual(['nq MORNINGS', 'Short side']);
  });

  it('refuses a name the trader already uses (whatever its case) with a 409 that says so', async () => {
    const trader = await newTrader(app, 'views');
    const first = await save(trader, { name: 'Morning NQ', filter: 'symbol=NQ' });
    const again = await trader.post('/api/saved-views', { name: 'morning nq', filter: 'symbol=ES' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('You already have a saved view named "morning nq"');
    const other = await save(trader, { name: 'Evening ES', filter: 'symbol=ES' });
    const clash = await trader.patch(`/api/saved-views/${other.id}`, { name: 'MORNING NQ' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('You already have a saved view named "MORNING NQ"');
    expect((await list(trader)).map((v) => [v.id, v.name])).toEqual([
      [other.id, 'Evening ES'],
      [first.id, 'Morning NQ'],
    ]);
    // Another trader may use the same name.
    await save(await newTrader(app, 'views'), { name: 'Morning NQ' });
  });

  it('answers bad input with a 400 naming the field', async () => {
    const trader = await newTrader(app, 'views');
    const view = await save(trader, { name: 'ok' });
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/saved-views', { name: '   ' }, 'name: Name is required'],
      ['POST', '/api/saved-views', { filter: 'symbol=NQ' }, 'name: Name is required'],
      ['POST', '/api/saved-views', { name: 'x'.repeat(61) }, 'name: must be at most 60 characters'],
      ['POST', '/api/saved-views', { name: 'x', filter: 'range=someday' }, expect.stringMatching(/^filter: range: /) as unknown as string],
      ['POST', '/api/saved-views', { name: 'x', filter: 'x'.repeat(4001) }, 'filter: must be at most 4000 characters'],
      ['PATCH', `/api/saved-views/${view.id}`, { name: '' }, 'name: Name is required'],
      ['PATCH', '/api/saved-views/nope', { name: 'y' }, 'id: id must be a saved view id'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await trader.json(method, path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toEqual(message);
    }
    expect((await list(trader)).map((v) => v.name)).toEqual(['ok']);
  });

  it("keeps a trader's views their own: another trader cannot list, rename or delete them (404)", async () => {
    const [alice, bob] = await Promise.all([newTrader(app, 'views-alice'), newTrader(app, 'views-bob')]);
    const view = await save(alice, { name: 'Alice only', filter: 'symbol=NQ' });
    expect(await list(bob)).toEqual([]);
    const rename = await bob.patch(`/api/saved-views/${view.id}`, { name: 'Taken' });
    expect(rename.status).toBe(404);
    expect(rename.body.error).toBe('Saved view not found');
    expect((await bob.delete(`/api/saved-views/${view.id}`)).status).toBe(404);
    expect(await list(alice)).toEqual([view]);
  });

  it(`keeps at most ${SAVED_VIEWS_MAX} views, and saving one more is refused until one is deleted`, async () => {
    const trader = await newTrader(app, 'views');
    const saved = [];
    for (let i = 0; i < SAVED_VIEWS_MAX; i++) saved.push(await save(trader, { name: `View ${i}`, filter: `hour=${i % 24}` }));
    const over = await trader.post('/api/saved-views', { name: 'One more' });
    expect(over.status).toBe(409);
    expect(over.body.error).toBe(`You can keep at most ${SAVED_VIEWS_MAX} saved views; delete one to save another`);
    expect(await list(trader)).toHaveLength(SAVED_VIEWS_MAX);
    // Another trader's limit is their own.
    await save(await newTrader(app, 'views'), { name: 'One more' });
    expect((await trader.delete(`/api/saved-views/${saved[0]!.id}`)).status).toBe(204);
    await save(trader, { name: 'One more' });
  });
});
