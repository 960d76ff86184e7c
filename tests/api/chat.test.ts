import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, formatShortDay, getTodayInZone } from '../../src/domain/dates';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { openSse, postSse } from '../support/sse';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * ReflectAI over HTTP (normal chat and deep reasoning) against the OpenAI-compatible test server: what we send, streaming, tools, titles,
 * history, failures, stop, limits, DeepThink and ownership.
 */

const today = () => getTodayInZone(new Date(), 'America/New_York');
const textOf = (events: any[]) =>
  events
    .filter((e) => e.type === 'text')
    .map((e) => e.delta)
    .join('');

describe.each(backends())('ReflectAI chat on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '200' }) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });
  beforeEach(() => provider.clear());

  async function trader(): Promise<{ client: ApiClient; sessionId: string }> {
    const client = await newTrader(app, 'chat');
    const current = await client.get('/api/chat/sessions/current');
    expect(current.status).toBe(200);
    return { client, sessionId: current.body.id };
  }

  /** Sends a message and reads the whole event stream. */
  const send = (client: ApiClient, sessionId: string, message: string) => postSse(client, '/api/chat', { sessionId, message });

  describe('conversations', () => {
    it('creates a session on first load, reuses an empty one for New Chat, and lists newest first', async () => {
      const { client, sessionId } = await trader();
      const again = await client.get('/api/chat/sessions/current');
      expect(again.body.id).toBe(sessionId);
      expect(again.body.title).toBe('New Conversation');
      // New Chat does nothing while the current session has no messages.
      const empty = await client.post('/api/chat/sessions');
      expect(empty.status).toBe(200);
      expect(empty.body.id).toBe(sessionId);
      provider.reply({ text: 'Hi!' }, { text: 'Greeting' });
      await send(client, sessionId, 'hello');
      const fresh = await client.post('/api/chat/sessions');
      expect(fresh.status).toBe(201);
      expect(fresh.body.id).not.toBe(sessionId);
      const list = await client.get('/api/chat/sessions');
      expect(list.body.map((s: { id: string }) => s.id)).toEqual([fresh.body.id, sessionId]);
      expect((await client.get('/api/chat/sessions/current')).body.id).toBe(fresh.body.id);
    });

    it('renames (at most 50 characters), clears (title back to New Conversation) and deletes with its messages', async () => {
      const { client, sessionId } = await trader();
      provider.reply({ text: 'Answer' }, { text: 'Some title' });
      await send(client, sessionId, 'hello there');
      const renamed = await client.patch(`/api/chat/sessions/${sessionId}`, { title: 'x'.repeat(60) });
      expect(renamed.body.title).toBe(`${'x'.repeat(47)}...`);
      expect((await client.patch(`/api/chat/sessions/${sessionId}`, { title: '   ' })).body.error).toBe('title: title must not be empty');

      const cleared = await client.post(`/api/chat/sessions/${sessionId}/clear`);
      expect(cleared.body).toMatchObject({ id: sessionId, title: 'New Conversation', last_message: null });
      expect((await client.get(`/api/chat/sessions/${sessionId}/messages`)).body).toEqual([]);

      provider.reply({ text: 'Again' }, { text: 'Title' });
      await send(client, sessionId, 'second life');
      const deleted = await client.delete(`/api/chat/sessions/${sessionId}`);
      expect(deleted.status).toBe(200);
      // Deleting the only (active) session creates a new one to switch to.
      expect(deleted.body.next.id).not.toBe(sessionId);
      expect((await client.get(`/api/chat/sessions/${sessionId}/messages`)).status).toBe(404);
      expect((await client.get('/api/chat/sessions')).body.map((s: { id: string }) => s.id)).toEqual([deleted.body.next.id]);
    });

    it('never reads, changes or answers in another trader’s session', async () => {
      const alice = await trader();
      provider.reply({ text: 'Private answer' }, { text: 'Private' });
      await send(alice.client, alice.sessionId, 'my secret plan');
      const bob = await trader();
      const id = alice.sessionId;
      expect((await bob.client.get(`/api/chat/sessions/${id}/messages`)).status).toBe(404);
      expect((await bob.client.patch(`/api/chat/sessions/${id}`, { title: 'Hacked' })).status).toBe(404);
      expect((await bob.client.post(`/api/chat/sessions/${id}/clear`)).status).toBe(404);
      expect((await bob.client.delete(`/api/chat/sessions/${id}`)).status).toBe(404);
      expect((await bob.client.post('/api/chat', { sessionId: id, message: 'hi' })).status).toBe(404);
      expect((await bob.client.post('/api/deepthink', { sessionId: id, message: 'hi' })).status).toBe(404);
      expect((await bob.client.get('/api/chat/sessions')).body.map((s: { id: string }) => s.id)).toEqual([bob.sessionId]);
      const messages = (await alice.client.get(`/api/chat/sessions/${id}/messages`)).body;
      expect(messages.map((m: { text: string }) => m.text)).toEqual(['my secret plan', 'Private answer']);
      expect((await alice.client.get('/api/chat/sessions')).body[0].title).toBe('Private');
      // No provider call was made for Bob.
      expect(provider.completions()).toHaveLength(2);
    });

    it('needs a session cookie', async () => {
      expect((await app.client().get('/api/chat/sessions')).status).toBe(401);
      expect((await app.client().post('/api/chat', { sessionId: crypto.randomUUID(), message: 'hi' })).status).toBe(401);
      expect((await app.client().post('/api/deepthink', { message: 'hi' })).status).toBe(401);
    });
  });

  describe('answers', () => {
    it('streams the answer with the spec’s parameters and stores both messages', async () => {
      const { client, sessionId } = await trader();
      provider.reply({ chunks: ['Hello ', 'trader', '.'] }, { text: 'Friendly Hello' });
      const { status, events } = await send(client, sessionId, 'Hello!');
      expect(status).toBe(200);
      expect(events[0]).toMatchObject({ type: 'user', message: { text: 'Hello!', isUser: true } });
      expect(events.filter((e) => e.type === 'text').map((e) => e.delta)).toEqual(['Hello ', 'trader', '.']);
      const done = events.find((e) => e.type === 'done');
      expect(done.message).toMatchObject({ text: 'Hello trader.', isUser: false, status: 'complete', mode: 'chat' });
      expect(events.find((e) => e.type === 'title').session.title).toBe('Friendly Hello');
      expect(events.at(-1)).toBe('[DONE]');

      const [answer, title] = provider.completions();
      expect(answer!.body).toMatchObject({ model: 'test-chat-model', max_tokens: 4000, temperature: 0.1, stream: true });
      expect(answer!.body.messages[0].role).toBe('system');
      expect(answer!.body.messages[0].content).toContain('concise, numeric terms');
      expect(answer!.body.messages[0].content).toContain('plain text');
      expect(answer!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello!' });
      // No trading keywords, no trade context.
      expect(answer!.body.messages[0].content).not.toContain('TRADE DATA');
      expect(answer!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('get_statistics');
      expect(title!.body).toMatchObject({ max_tokens: 20, temperature: 0.3 });
      expect(title!.body.messages.at(-1).content).toBe('Hello!');

      const stored = (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body;
      expect(stored.map((m: { text: string; isUser: boolean }) => [m.isUser, m.text])).toEqual([
        [true, 'Hello!'],
        [false, 'Hello trader.'],
      ]);
      expect((await client.get('/api/chat/sessions')).body[0]).toMatchObject({ title: 'Friendly Hello', last_message: 'Hello trader.' });
    });

    it('adds the spec’s trade context to trading questions: the range’s trades, totals and monthly counts', async () => {
      const { client, sessionId } = await trader();
      const d = today();
      await createTrade(client, { date: d, symbol: 'NQ', side: 'Long', trade_type: 'Breakout', pnl: '300.10', notes: 'clean' });
      await createTrade(client, { date: d, symbol: 'ES', trade_type: 'Reversal', pnl: '-100.05' });
      await createTrade(client, { date: addDays(d, -40), symbol: 'YM', pnl: '999' });
      provider.reply({ text: 'You made $200.05 today.' }, { text: 'Today' });
      await send(client, sessionId, 'How did I do today?');
      // The context travels with the question, fenced as the trader's data; the system message holds instructions only.
      const sent = provider.completions()[0]!.body.messages as Array<{ role: string; content: string }>;
      expect(sent[0]!.content).not.toContain('TRADE DATA');
      expect(sent.at(-1)!.role).toBe('user');
      const asked = sent.at(-1)!.content;
      expect(asked).toMatch(/^<trader-data>\nTRADE DATA[^]*\n<\/trader-data>\n\nHow did I do today\?$/);
      expect(asked).toContain('date | symbol | side | type | result | PnL | notes');
      expect(asked).toMatch(new RegExp(`${d} \\| NQ \\| Long \\| Breakout \\| Win \\| \\$300\\.10 \\| clean`));
      expect(asked).toContain(`Date range: ${d} to ${d}`);
      expect(asked).toContain('Total trades: 2');
      expect(asked).toContain('Wins: 1, Losses: 1, Break-even: 0');
      expect(asked).toContain('Win percentage: 50.0% (break-evens excluded)');
      expect(asked).toContain('Total PnL: $200.05');
      expect(asked).toContain(`Trades per month: ${d.slice(0, 7)}: 2`);
      expect(asked).not.toContain('YM');
      const messages = (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body;
      // Worded as the tools word theirs (the same trades were described twice, in two wordings).
      expect(messages[1].meta.sources[0].text).toBe(`computed from 2 trades, ${formatShortDay(d)}, ${d.slice(0, 4)}`);
    });

    it('sends the conversation so far as history', async () => {
      const { client, sessionId } = await trader();
      provider.reply({ text: 'First answer' }, { text: 'T' }, { text: 'Second answer' });
      await send(client, sessionId, 'first question');
      await send(client, sessionId, 'second question');
      const second = provider.completions()[2]!.body.messages.slice(1);
      expect(second).toEqual([
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'First answer' },
        { role: 'user', content: 'second question' },
      ]);
      // Only the first message asks for a title.
      expect(provider.completions()).toHaveLength(3);
    });

    it('keeps New Conversation when the title request fails, and falls back to 30 characters plus ... for an empty title', async () => {
      const a = await trader();
      provider.reply({ text: 'Answer', only: 'stream' }, { status: 500, only: 'non-stream' });
      const { events } = await send(a.client, a.sessionId, 'What should I review this weekend?');
      expect(events.find((e) => e.type === 'title')?.session.title ?? 'New Conversation').toBe('New Conversation');
      expect((await a.client.get('/api/chat/sessions')).body[0].title).toBe('New Conversation');

      const b = await trader();
      provider.reply({ text: 'Answer', only: 'stream' }, { text: '   ', only: 'non-stream' });
      await send(b.client, b.sessionId, 'How should I size my positions after a losing streak?');
      expect((await b.client.get('/api/chat/sessions')).body[0].title).toBe('How should I size my positions...');
    });
  });

  describe('tools over the trader’s own numbers', () => {
    it('runs get_statistics for the model and its figures equal the Trade Log’s statistics for the same filter', async () => {
      const { client, sessionId } = await trader();
      const account = await createAccount(client, 'Apex 50K');
      const d = today();
      for (const [pnl, symbol, period] of [
        ['300.10', 'NQ', 'AM'],
        ['-120.05', 'NQ', 'AM'],
        ['45', 'ES', 'PM'],
        ['0', 'NQ', 'AM'],
        ['-10.01', 'NQ', 'PM'],
      ] as const) {
        await createTrade(client, { date: d, symbol, period, pnl, account_id: account.id });
      }
      await createTrade(client, { date: d, symbol: 'NQ', period: 'AM', pnl: '5000' }); // unassigned: outside the filter
      provider.reply(
        { toolCalls: [{ name: 'get_statistics', arguments: { from: d, to: d, account: 'Apex 50K', symbol: 'nq' } }] },
        { text: 'Your NQ trades on Apex 50K: see the figures.' },
        { text: 'NQ on Apex' },
      );
      const { events } = await send(client, sessionId, 'How did NQ go on Apex today?');
      expect(events.find((e) => e.type === 'tool')).toMatchObject({ name: 'get_statistics', label: 'Computing your statistics' });
      const source = events.find((e) => e.type === 'source');
      expect(source).toMatchObject({ tool: 'get_statistics', trades: 4 });
      expect(source.text).toMatch(/^computed from 4 trades, .+ \(account Apex 50K, NQ\)$/);

      const toolMessage = provider.completions()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
      const figures = JSON.parse(toolMessage.content);
      const stats = (await client.get(`/api/trades/stats?account=${account.id}&from=${d}&to=${d}&q=NQ`)).body.summary;
      expect(figures).toMatchObject({
        trades: stats.trades,
        wins: stats.wins,
        losses: stats.losses,
        break_evens: stats.breakEvens,
        win_rate: `${stats.winRate.toFixed(1)}%`,
        net_pnl: '$170.04',
        max_win_streak: stats.streaks.maxWinStreak,
        max_loss_streak: stats.streaks.maxLossStreak,
      });
      expect(stats.pnlCents).toBe(17_004);
      // The answer cites no money or percentage, so nothing is flagged.
      expect(events.find((e) => e.type === 'done').message.meta.unverified).toBeUndefined();
      const done = events.find((e) => e.type === 'done');
      expect(done.message.meta.sources.map((s: { tool: string }) => s.tool)).toContain('get_statistics');
    });

    it("prints 'computed from' once when the question's trade context and a tool read the same trades", async () => {
      const { client, sessionId } = await trader();
      const d = today();
      for (const pnl of ['120', '-45']) await createTrade(client, { date: d, symbol: 'NQ', pnl });
      provider.reply({ toolCalls: [{ name: 'get_statistics', arguments: {} }] }, { text: 'Two trades so far.' }, { text: 'Trades' });
      const { events } = await send(client, sessionId, 'How is my trading going?');
      const line = `computed from 2 trades, ${formatShortDay(d)}, ${d.slice(0, 4)}`;
      expect(events.filter((e) => e.type === 'source').map((e) => e.text)).toEqual([line]);
      const stored = (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body[1].meta.sources;
      expect(stored.map((s: { text: string }) => s.text)).toEqual([line]);
      // A tool over other trades keeps its own line beside the context's.
      provider.reply({ toolCalls: [{ name: 'get_statistics', arguments: { symbol: 'ES' } }] }, { text: 'No ES trades.' });
      const second = await send(client, sessionId, 'And my ES trades?');
      const texts = second.events.find((e) => e.type === 'done').message.meta.sources.map((s: { text: string }) => s.text);
      expect(texts).toContain(line);
      expect(texts).toContain('computed from 0 trades (ES)');
    });

    it('marks money and percentages in an answer that no tool or context gave the model', async () => {
      const { client, sessionId } = await trader();
      await createTrade(client, { date: today(), pnl: '100' });
      await createTrade(client, { date: today(), pnl: '-40' });
      provider.reply(
        { toolCalls: [{ name: 'get_statistics', arguments: {} }] },
        { text: 'Net $60.00 at a 50.0% win rate, so about $30.00 per trade.' },
        { text: 'Net' },
      );
      const { events } = await send(client, sessionId, 'What is my average per trade?');
      expect(events.find((e) => e.type === 'done').message.meta.unverified).toEqual(['$30.00']);
    });

    it('draws a P&L breakdown as a chart kept with the answer', async () => {
      const { client, sessionId } = await trader();
      const d = today();
      await createTrade(client, { date: d, period: 'AM', pnl: '100' });
      await createTrade(client, { date: d, period: 'PM', pnl: '-40' });
      provider.reply({ toolCalls: [{ name: 'get_pnl_breakdown', arguments: { by: 'session' } }] }, { text: 'AM beats PM.' }, { text: 'Sessions' });
      const { events } = await send(client, sessionId, 'Which session is better for my trading?');
      const done = events.find((e) => e.type === 'done');
      expect(done.message.meta.charts).toEqual([
        {
          kind: 'bar',
          title: 'Net P&L by session',
          points: [
            { label: 'AM', cents: 10_000 },
            { label: 'PM', cents: -4_000 },
          ],
        },
      ]);
    });

    it('gives the model nothing of another trader, whatever account it names', async () => {
      const alice = await trader();
      const foreign = await createAccount(alice.client, 'Alice Funded');
      await createTrade(alice.client, { date: today(), pnl: '777', account_id: foreign.id });
      const bob = await trader();
      provider.reply(
        {
          toolCalls: [
            { name: 'get_statistics', arguments: { account: 'Alice Funded' } },
            { name: 'find_trades', arguments: { account: foreign.id } },
          ],
        },
        { text: 'I cannot find that account.' },
        { text: 'x' },
      );
      await send(bob.client, bob.sessionId, 'Show my trades on Alice Funded');
      const tools = provider
        .completions()[1]!
        .body.messages.filter((m: { role: string }) => m.role === 'tool')
        .map((m: { content: string }) => JSON.parse(m.content));
      expect(tools).toEqual([{ error: 'No trading account named "Alice Funded"' }, { error: `No trading account named "${foreign.id}"` }]);
      // The foreign account's id is the model's own argument, echoed in the error; a random UUID may hold "777".
      expect(JSON.stringify(provider.completions()[1]!.body).replaceAll(foreign.id, '')).not.toContain('777');
    });

    it('answers with the spec’s context alone when the model refuses tools', async () => {
      const { client, sessionId } = await trader();
      provider.reply({ status: 400 }, { status: 400 }, { text: 'Plain answer' }, { text: 'T' });
      const { events } = await send(client, sessionId, 'How is my trading?');
      expect(textOf(events)).toBe('Plain answer');
      const [first, , third] = provider.completions();
      expect(first!.body.tools).toBeDefined();
      expect(third!.body.tools).toBeUndefined();
      expect(third!.body.messages.at(-1).content).toContain('TRADE DATA');
    });
  });

  describe('failures, stop and limits', () => {
    it.each([
      [401, 'Error connecting to AI API (401). Please try again later.'],
      [429, 'Error connecting to AI API (429). Please try again later.'],
      [500, 'Error connecting to AI API (500). Please try again later.'],
    ])('says %s as the spec words it and stores the failed answer, marked', async (status, message) => {
      const { client, sessionId } = await trader();
      provider.reply({ status }, { status }, { text: 'Title' });
      const { events } = await send(client, sessionId, 'Hello');
      expect(events.find((e) => e.type === 'error')).toEqual({ type: 'error', message });
      const done = events.find((e) => e.type === 'done');
      expect(done.message).toMatchObject({ status: 'failed', text: '', meta: { error: message } });
    });

    it('says the response was invalid when the provider answers garbage', async () => {
      const { client, sessionId } = await trader();
      provider.reply({ invalidJson: true, only: 'stream' }, { invalidJson: true, only: 'non-stream' }, { text: 'T' });
      const { events } = await send(client, sessionId, 'Hello');
      expect(events.find((e) => e.type === 'error').message).toBe('Error: Received invalid response from API. Please try again.');
    });

    it('stores a stopped answer as far as it got, and the provider request ends too', async () => {
      const { client, sessionId } = await trader();
      provider.reply(
        { text: 'one two three four five six seven eight nine ten', delayMs: 150, only: 'stream' },
        { text: 'Stop test', only: 'non-stream' },
      );
      const controller = new AbortController();
      const { events } = await openSse(client, '/api/chat', { sessionId, message: 'Tell me a long story' }, controller.signal);
      let got = '';
      try {
        for await (const event of events) {
          if (event.type === 'text') got += event.delta;
          if (got.split(' ').length > 3) controller.abort();
        }
      } catch {
        // the aborted read
      }
      const answerRequest = provider.completions().findIndex((r) => r.body.stream);
      await provider.waitForAbort(answerRequest);
      await expect
        .poll(async () => (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body.at(-1), { timeout: 10_000 })
        .toMatchObject({ isUser: false, status: 'stopped' });
      const stopped = (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body.at(-1);
      expect(stopped.text.length).toBeGreaterThan(0);
      expect('one two three four five six seven eight nine ten'.startsWith(stopped.text)).toBe(true);
      expect(stopped.text).not.toBe('one two three four five six seven eight nine ten');
      // The title is asked for once the stopped answer is stored: a stopped conversation is titled too. Waited for
      // here, so that its request never lands in the next test's provider log.
      await expect
        .poll(async () => (await client.get('/api/chat/sessions')).body.find((s: { id: string }) => s.id === sessionId)?.title, { timeout: 10_000 })
        .toBe('Stop test');
    });

    it('refuses empty and oversized messages with the field named', async () => {
      const { client, sessionId } = await trader();
      expect((await client.post('/api/chat', { sessionId, message: '   ' })).body.error).toBe('message: message must not be empty');
      expect((await client.post('/api/chat', { sessionId, message: 'x'.repeat(4001) })).body.error).toBe(
        'message: message must be at most 4000 characters',
      );
      expect((await client.post('/api/chat', { sessionId: 'nope', message: 'hi' })).body.error).toBe(
        'sessionId: sessionId must be a chat session id',
      );
      expect(provider.completions()).toHaveLength(0);
    });
  });

  describe('DeepThink', () => {
    it('streams reasoning apart from the answer, from the reasoning model, and keeps both in the session', async () => {
      const { client, sessionId } = await trader();
      provider.reply({ reasoning: ['Compare ', 'sessions.'], chunks: ['AM ', 'wins.'] }, { text: 'Session comparison' });
      const { contentType, events } = await postSse(client, '/api/deepthink', { message: 'Which session should I drop?', history: [], sessionId });
      expect(contentType).toContain('text/event-stream');
      const parts = events.filter((e) => typeof e === 'object' && 'content' in e);
      expect(parts).toEqual([
        { content: 'Compare ', isReasoning: true },
        { content: 'sessions.', isReasoning: true },
        { content: 'AM ', isReasoning: false },
        { content: 'wins.', isReasoning: false },
      ]);
      expect(events.at(-1)).toBe('[DONE]');
      expect(provider.completions()[0]!.body).toMatchObject({ model: 'test-reasoning-model', stream: true, max_tokens: 4000 });
      const stored = (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body.at(-1);
      expect(stored).toMatchObject({ text: 'AM wins.', reasoning: 'Compare sessions.', mode: 'deepthink', status: 'complete' });
    });

    it('reads <think> reasoning of local models, and uses the history the browser sends without a session', async () => {
      const { client } = await trader();
      provider.reply({ chunks: ['<think>', 'hmm', '</think>', 'Answer.'] });
      const { events } = await postSse(client, '/api/deepthink', {
        message: 'And now?',
        history: [
          { role: 'user', content: 'Earlier question' },
          { role: 'assistant', content: 'Earlier answer' },
        ],
      });
      expect(events.filter((e) => typeof e === 'object' && 'content' in e)).toEqual([
        { content: 'hmm', isReasoning: true },
        { content: 'Answer.', isReasoning: false },
      ]);
      expect(provider.completions()[0]!.body.messages.slice(1)).toEqual([
        { role: 'user', content: 'Earlier question' },
        { role: 'assistant', content: 'Earlier answer' },
        { role: 'user', content: 'And now?' },
      ]);
    });

    it('says DeepThink failed in the spec’s words', async () => {
      const { client } = await trader();
      provider.reply({ status: 500 }, { status: 500 });
      const { events } = await postSse(client, '/api/deepthink', { message: 'Think hard', history: [] });
      expect(events).toContainEqual({ error: 'Error connecting to DeepThink API. Please try again later.' });
    });
  });
});

describe('ReflectAI limits and a server without a provider', () => {
  it('refuses a trader past AI_RATE_LIMIT with 429 and Retry-After, before storing anything', async () => {
    const provider = await startAiServer();
    const app = await startTestApp({ env: aiEnv(provider, { AI_RATE_LIMIT: '3' }) });
    try {
      const client = await newTrader(app);
      const sessionId = (await client.get('/api/chat/sessions/current')).body.id;
      // The first message costs two requests (the answer and its title), the second one.
      await postSse(client, '/api/chat', { sessionId, message: 'one' });
      await postSse(client, '/api/chat', { sessionId, message: 'two' });
      const refused = await client.request('POST', '/api/chat', { sessionId, message: 'three' }, { accept: 'text/event-stream' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error).toMatch(/^Too many AI requests\. Please wait \d+ seconds and try again\.$/);
      const texts = (await client.get(`/api/chat/sessions/${sessionId}/messages`)).body.map((m: { text: string }) => m.text);
      expect(texts).not.toContain('three');
      // Another trader still gets answers.
      const other = await newTrader(app);
      const otherSession = (await other.get('/api/chat/sessions/current')).body.id;
      expect((await postSse(other, '/api/chat', { sessionId: otherSession, message: 'hi' })).status).toBe(200);
    } finally {
      await app.close();
      await provider.close();
    }
  });

  it('says plainly that AI is not configured, and sends nothing anywhere', async () => {
    const app = await startTestApp();
    try {
      const client = await newTrader(app);
      const sessionId = (await client.get('/api/chat/sessions/current')).body.id;
      const chat = await client.post('/api/chat', { sessionId, message: 'hello' });
      expect(chat.status).toBe(503);
      expect(chat.body.error).toContain('AI is not configured on this Edgebook server');
      const deep = await client.post('/api/deepthink', { message: 'hello', history: [] });
      expect(deep.status).toBe(503);
      expect(deep.body.title).toBe('DeepThink Not Configured');
      expect(deep.body.error).toContain('Ask the administrator');
      expect((await client.get(`/api/chat/sessions/${sessionId}/messages`)).body).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
