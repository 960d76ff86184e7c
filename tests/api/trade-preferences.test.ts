import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SESSIONS, DEFAULT_TAGS, DEFAULT_TRADE_TYPES } from '../../src/domain/trades';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createTrade, newTrader } from './trades-support';

/**
 * Trade types, sessions and tags per trader.
 */
const sorted = (xs: readonly string[]) => [...xs].sort();

describe.each(backends())('trade preferences on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  /**
   * DELETE with a JSON body, as the browser's fetch sends it. The content-length is set here because the test
   * client's raw-socket path writes a DELETE body without one (Node does not chunk DELETE), which the server then
   * reads as a malformed next request.
   */
  async function remove(client: ApiClient, type: string, value: string) {
    const body = JSON.stringify({ type, value });
    const res = await client.request('DELETE', '/api/trade-preferences', { type, value }, { 'content-length': String(Buffer.byteLength(body)) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  it("starts with the spec's defaults, seeded once even when the first reads race", async () => {
    const t = await newTrader(app, 'defaults');
    const reads = await Promise.all(Array.from({ length: 5 }, () => t.get('/api/trade-preferences')));
    for (const res of reads) {
      expect(res.status).toBe(200);
      expect(sorted(res.body.trade_type)).toEqual(sorted(DEFAULT_TRADE_TYPES));
      expect(sorted(res.body.session)).toEqual(sorted(DEFAULT_SESSIONS));
      expect(sorted(res.body.tag)).toEqual(sorted(DEFAULT_TAGS));
    }
  });

  it('adds a type, a session and a tag with the spec messages; new ones come after the defaults', async () => {
    const t = await newTrader(app, 'adds');
    const type = await t.post('/api/trade-preferences', { type: 'trade_type', value: '  Opening Drive ' });
    expect(type.status).toBe(201);
    expect(type.body.message).toBe('Trade type "Opening Drive" added');
    expect(type.body.trade_type.at(-1)).toBe('Opening Drive');
    const session = await t.post('/api/trade-preferences', { type: 'session', value: 'Asia' });
    expect(session.status).toBe(201);
    expect(session.body.message).toBe('Session "Asia" added');
    const tag = await t.post('/api/trade-preferences', { type: 'tag', value: 'FOMC' });
    expect(tag.status).toBe(201);
    expect(tag.body.message).toBe('Tag "FOMC" added successfully');
    const after = (await t.get('/api/trade-preferences')).body;
    expect(after.trade_type).toContain('Opening Drive');
    expect(after.session.at(-1)).toBe('Asia');
    expect(after.tag.at(-1)).toBe('FOMC');
  });

  it('refuses duplicates case-insensitively with the exact spec messages, and adds nothing', async () => {
    const t = await newTrader(app, 'dupes');
    const type = await t.post('/api/trade-preferences', { type: 'trade_type', value: 'breakout' });
    expect(type.status).toBe(409);
    expect(type.body.error).toBe('This trade type already exists');
    const session = await t.post('/api/trade-preferences', { type: 'session', value: ' am ' });
    expect(session.status).toBe(409);
    expect(session.body.error).toBe('This session already exists');
    const tag = await t.post('/api/trade-preferences', { type: 'tag', value: 'SCALP' });
    expect(tag.status).toBe(409);
    expect(tag.body.error).toBe('Tag "SCALP" already exists');
    const body = (await t.get('/api/trade-preferences')).body;
    expect(sorted(body.trade_type)).toEqual(sorted(DEFAULT_TRADE_TYPES));
    expect(sorted(body.session)).toEqual(sorted(DEFAULT_SESSIONS));
    expect(sorted(body.tag)).toEqual(sorted(DEFAULT_TAGS));
  });

  it("refuses a blank tag with 'Please enter a tag name'; a blank type or session is a 400 too, and an unknown kind names the field", async () => {
    const t = await newTrader(app, 'blank');
    const tag = await t.post('/api/trade-preferences', { type: 'tag', value: '   ' });
    expect(tag.status).toBe(400);
    expect(tag.body.error).toBe('Please enter a tag name');
    expect((await t.post('/api/trade-preferences', { type: 'session', value: '' })).status).toBe(400);
    const kind = await t.post('/api/trade-preferences', { type: 'instrument', value: 'NQ' });
    expect(kind.status).toBe(400);
    expect(kind.body.error).toMatch(/^type: /);
  });

  it('refuses to remove a type or a session that a trade uses, with the spec message', async () => {
    const t = await newTrader(app, 'inuse');
    await createTrade(t, { trade_type: 'Breakout', period: 'Lunch', pnl: 1 });
    const type = await remove(t, 'trade_type', 'Breakout');
    expect(type.status).toBe(409);
    expect(type.body.error).toBe('Cannot remove "Breakout" - it\'s being used by existing trades');
    const session = await remove(t, 'session', 'Lunch');
    expect(session.status).toBe(409);
    expect(session.body.error).toBe('Cannot remove "Lunch" - it\'s being used by existing trades');
    const body = (await t.get('/api/trade-preferences')).body;
    expect(body.trade_type).toContain('Breakout');
    expect(body.session).toContain('Lunch');

    // Unused ones go, with the spec messages.
    const momentum = await remove(t, 'trade_type', 'Momentum');
    expect(momentum.status).toBe(200);
    expect(momentum.body.message).toBe('Trade type "Momentum" removed');
    expect(momentum.body.trade_type).not.toContain('Momentum');
    const pm = await remove(t, 'session', 'Pre-Market');
    expect(pm.body.message).toBe('Session "Pre-Market" removed');
    expect(pm.body.session).not.toContain('Pre-Market');
  });

  it('removes a tag even when trades carry it (tags are only suggestions)', async () => {
    const t = await newTrader(app, 'tags');
    const trade = await createTrade(t, { tags: ['Scalp'], pnl: 1 });
    const res = await remove(t, 'tag', 'Scalp');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Tag removed from suggestions');
    expect(res.body.tag).not.toContain('Scalp');
    expect((await t.get(`/api/trades/${trade.id}`)).body.tags).toEqual(['Scalp']);
  });

  it('keeps a trader’s removals: removing every option does not bring the defaults back', async () => {
    const t = await newTrader(app, 'empty');
    const prefs = (await t.get('/api/trade-preferences')).body;
    for (const type of ['trade_type', 'session', 'tag'] as const) {
      for (const value of prefs[type]) expect((await remove(t, type, value)).status).toBe(200);
    }
    expect((await t.get('/api/trade-preferences')).body).toEqual({ trade_type: [], session: [], tag: [] });
  });

  it("isolates traders: one's additions, removals and trades never touch the other's", async () => {
    const [a, b] = await Promise.all([newTrader(app, 'iso-a'), newTrader(app, 'iso-b')]);
    const bBefore = (await b.get('/api/trade-preferences')).body;
    // B uses Momentum and Power Hour; that must not stop A from removing them.
    await createTrade(b, { trade_type: 'Momentum', period: 'Power Hour', pnl: 1 });
    expect((await a.post('/api/trade-preferences', { type: 'trade_type', value: 'A-only setup' })).status).toBe(201);
    expect((await remove(a, 'trade_type', 'Momentum')).status).toBe(200);
    expect((await remove(a, 'session', 'Power Hour')).status).toBe(200);
    expect((await remove(a, 'tag', 'NQ')).status).toBe(200);
    expect((await b.get('/api/trade-preferences')).body).toEqual(bBefore);
    // And B may add what A added: duplicates are per trader.
    expect((await b.post('/api/trade-preferences', { type: 'trade_type', value: 'A-only setup' })).status).toBe(201);
  });

  it('requires a signed-in trader', async () => {
    expect((await app.client().get('/api/trade-preferences')).status).toBe(401);
  });
});
