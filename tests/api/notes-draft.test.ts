import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type TestApp } from '../support/app';
import { openSse, postSse } from '../support/sse';
import { createTrade, newTrader } from './trades-support';

/**
 * 'Write with AI' in the notebook (it drafts with the configured provider),
 * against the OpenAI-compatible test server: the draft streams as events, the linked trade's figures come from the
 * journal, another trader's trade is refused before any provider call, and without a provider the answer says how
 * to configure one.
 */
describe.each(backends())("'Write with AI' on %s", (backend) => {
  let app: TestApp;
  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '50' }) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });
  beforeEach(() => provider.clear());

  it("streams the draft, giving the model the linked trade's stored figures", async () => {
    const trader = await newTrader(app, 'draft');
    const trade = await createTrade(trader, {
      date: '2025-03-04',
      symbol: 'NQ',
      pnl: '412.50',
      commission: '4.5',
      trade_type: 'Breakout',
      notes: 'Clean IB break',
    });
    provider.reply({ chunks: ['## What went well\n\n', '- Waited for the ', 'break of the IB high'] });
    const res = await postSse(trader, '/api/notes/draft', {
      title: 'NQ review',
      content: 'Felt calm.',
      instruction: 'Review the trade',
      trade_id: trade.id,
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/event-stream');
    const text = res.events
      .filter((e) => e.type === 'text')
      .map((e) => e.delta)
      .join('');
    expect(text).toBe('## What went well\n\n- Waited for the break of the IB high');
    expect(res.events.at(-2)).toEqual({ type: 'done' });
    expect(res.events.at(-1)).toBe('[DONE]');

    const [request] = provider.completions();
    expect(request!.body).toMatchObject({ model: 'test-chat-model', stream: true, max_tokens: 1200 });
    const [system, user] = request!.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/Never compute, estimate or invent/);
    expect(user.content).toContain('Note title: NQ review');
    expect(user.content).toContain('What to write: Review the trade');
    expect(user.content).toContain('net P&L $412.50 after $4.50 commission');
    expect(user.content).toContain('Felt calm.');
  });

  it('answers one JSON text without an event stream', async () => {
    const trader = await newTrader(app, 'draft');
    provider.reply({ text: 'A short plan.' });
    const res = await trader.post('/api/notes/draft', { title: 'Plan' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'A short plan.' });
    expect(provider.completions()[0]!.body.stream).toBeFalsy();
  });

  it("refuses another trader's trade and bad input before asking the provider", async () => {
    const alice = await newTrader(app, 'alice');
    const bob = await newTrader(app, 'bob');
    const hers = await createTrade(alice, { symbol: 'SECRET', pnl: 999 });
    const stolen = await postSse(bob, '/api/notes/draft', { title: 'x', trade_id: hers.id });
    expect(stolen.status).toBe(400);
    expect(stolen.events[0]).toEqual(expect.objectContaining({ error: 'trade_id: Trade not found' }));
    const long = await bob.post('/api/notes/draft', { instruction: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('instruction: must be at most 2,000 characters');
    expect(provider.completions()).toHaveLength(0);
  });

  it("a provider error ends the stream with the spec's message, not a stack trace", async () => {
    const trader = await newTrader(app, 'draft');
    provider.reply({ status: 500 }, { status: 500 });
    const res = await postSse(trader, '/api/notes/draft', { title: 'x' });
    expect(res.status).toBe(200);
    expect(res.events).toContainEqual({ type: 'error', status: 502, message: 'Error connecting to AI API (500). Please try again later.' });
    expect(JSON.stringify(res.events)).not.toContain('sk-test-key');
  });

  it('stopping the draft closes the provider request too', async () => {
    const trader = await newTrader(app, 'draft');
    provider.reply({ chunks: ['one ', 'two ', 'three ', 'four '], delayMs: 300 });
    const controller = new AbortController();
    const { events } = await openSse(trader, '/api/notes/draft', { title: 'x' }, controller.signal);
    const first = await events.next();
    expect(first.value).toEqual({ type: 'text', delta: 'one ' });
    controller.abort();
    await provider.waitForAbort(0);
    expect(provider.completions()[0]!.aborted).toBe(true);
  });

  it('without a provider says so and how to configure one (503)', async () => {
    const plain = await startTestApp({ backend });
    try {
      const trader = await newTrader(plain, 'draft');
      const res = await trader.post('/api/notes/draft', { title: 'x' });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(/AI is not configured/);
      expect(res.body.error).toContain('AI_BASE_URL');
      expect((await trader.get('/api/config')).body.ai.configured).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
