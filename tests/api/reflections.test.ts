import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, getStartOfWeekMonday, getTodayInZone } from '../../src/domain/dates';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { openSse, postSse } from '../support/sse';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Trade Reflections over HTTP, against the OpenAI-compatible test server.
 */

const today = () => getTodayInZone(new Date(), 'America/New_York');

const GOOD_ANSWER = JSON.stringify({
  summary: { patterns: ['Your AM breakouts carry the week.'] },
  strengths: ['Patient entries on breakouts.'],
  weaknesses: ['Chasing in the PM session.'],
  suggestions: ['Stop trading after 14:00.'],
  actionPlan: ['Trade only AM breakouts tomorrow.'],
  // A model that invents figures anyway: they must not reach the trader.
  statistics: { byTimeOfDay: [{ session: 'AM', totalTrades: 999, winRate: 99 }] },
  totalTrades: 12345,
});

describe.each(backends())('reflections on %s', (backend) => {
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

  /** A trader with a week of trades: this week (Monday-start) holds 4 of them, last week 1. */
  async function traderWithWeek(): Promise<{ client: ApiClient; ids: [string, string, string, string, string]; monday: string }> {
    const client = await newTrader(app, 'reflect');
    const monday = getStartOfWeekMonday(today());
    const day = (n: number) => addDays(monday, n);
    const ids: string[] = [];
    // Days after today are in the future, but still in this week's range: the page shows the whole week.
    for (const t of [
      { date: day(0), symbol: 'NQ', trade_type: 'Breakout', period: 'AM', pnl: '300.10', notes: 'Waited for the sweep of the lows' },
      { date: day(0), symbol: 'ES', trade_type: 'Breakout', period: 'AM', pnl: '100.20' },
      { date: day(1), symbol: 'NQ', trade_type: 'Reversal', period: 'PM', pnl: '-200.05', tags: ['FOMO'], notes: 'chased' },
      { date: day(2), symbol: 'MNQ', trade_type: 'Momentum', period: 'Lunch', pnl: '0' },
      { date: addDays(monday, -3), symbol: 'NQ', trade_type: 'Breakout', period: 'AM', pnl: '50' },
    ]) {
      ids.push((await createTrade(client, t)).id);
    }
    return { client, ids: ids as [string, string, string, string, string], monday };
  }

  describe('the page data', () => {
    it('gives this week’s reflections, figures and insights, computed by the domain', async () => {
      const { client, ids, monday } = await traderWithWeek();
      const res = await client.get('/api/reflections?period=week&offset=0');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        period: 'week',
        offset: 0,
        label: 'This Week',
        from: monday,
        to: addDays(monday, 6),
        accountName: 'All accounts',
      });
      expect(res.body.reflections.map((r: { tradeId: string }) => r.tradeId).sort()).toEqual(ids.slice(0, 4).sort());
      const first = res.body.reflections.find((r: { tradeId: string }) => r.tradeId === ids[0]);
      expect(first).toMatchObject({
        id: `r-${ids[0]}`,
        date: monday,
        day: 'Monday',
        session: 'AM',
        type: 'Breakout',
        result: 'Win',
        followedRules: null,
        description: 'Waited for the sweep of the lows',
        tags: ['Breakout', 'AM', 'Sweep'],
        pnlCents: 30_010,
      });
      expect(res.body.reflections.find((r: { tradeId: string }) => r.tradeId === ids[3]).description).toBe('No description provided');
      expect(res.body.statistics.totals).toMatchObject({ totalTrades: 4, wins: 2, losses: 1, breakEvens: 1, winRate: 66.7, pnlCents: 20_025 });
      expect(res.body.insights.map((i: { kind: string }) => i.kind)).toEqual(['fomo']);
      // Last week's one trade is the previous four weeks' whole history.
      expect(res.body.comparison).toMatchObject({ unit: 'week', previousAverage: { totalTrades: 0.3, pnlCents: 1_250 } });
    });

    it('walks back by offset with the spec’s labels, and refuses a bad period or offset with the field named', async () => {
      const { client } = await traderWithWeek();
      const last = await client.get('/api/reflections?period=week&offset=1');
      expect(last.body.label).toBe('Last Week');
      expect(last.body.statistics.totals.totalTrades).toBe(1);
      expect((await client.get('/api/reflections?period=day&offset=2')).body.label).toBe('2 days ago');
      expect((await client.get('/api/reflections?period=month&offset=0')).body.label).toBe('This Month');
      const bad = await client.get('/api/reflections?period=year');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('period: period must be day, week or month');
      expect((await client.get('/api/reflections?offset=-1')).body.error).toBe('offset: offset must be 0 or more');
      expect((await client.get('/api/reflections?offset=abc')).status).toBe(400);
    });

    it('filters by account, and refuses another trader’s account', async () => {
      const { client, monday } = await traderWithWeek();
      const account = await createAccount(client, 'Topstep 50K');
      await createTrade(client, { date: monday, symbol: 'YM', trade_type: 'Breakout', period: 'AM', pnl: '75', account_id: account.id });
      const res = await client.get(`/api/reflections?period=week&account=${account.id}`);
      expect(res.body.accountName).toBe('Topstep 50K');
      expect(res.body.reflections.map((r: { symbol: string }) => r.symbol)).toEqual(['YM']);
      const other = await newTrader(app, 'other');
      const foreign = await createAccount(other, 'Not yours');
      const refused = await client.get(`/api/reflections?period=week&account=${foreign.id}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('account: Trading account not found');
    });
  });

  describe('overrides', () => {
    it('stores rule adherence, tags and a description per trade, seen again on the next load', async () => {
      const { client, ids } = await traderWithWeek();
      expect((await client.patch(`/api/reflections/${ids[0]}`, { followed_rules: true })).body.followed_rules).toBe(true);
      expect((await client.patch(`/api/reflections/${ids[2]}`, { followed_rules: false, tags: ['FOMO', 'Revenge'] })).status).toBe(200);
      await client.patch(`/api/reflections/${ids[1]}`, { description: '  Sized up after a win  ' });
      const page = (await client.get('/api/reflections?period=week')).body;
      const byId = (id: string) => page.reflections.find((r: { tradeId: string }) => r.tradeId === id);
      expect(byId(ids[0]).followedRules).toBe(true);
      expect(byId(ids[2])).toMatchObject({ followedRules: false, tags: ['FOMO', 'Revenge'] });
      expect(byId(ids[1]).description).toBe('Sized up after a win');
      expect(page.statistics.adherence).toMatchObject({ rated: 2, followed: 1, notFollowed: 1, adherenceRate: 50 });
      expect(page.insights.map((i: { kind: string }) => i.kind)).toEqual(['fomo', 'rules-broken']);
      // Back to unset: the cycle's third state.
      await client.patch(`/api/reflections/${ids[0]}`, { followed_rules: null });
      const again = (await client.get('/api/reflections?period=week')).body;
      expect(again.reflections.find((r: { tradeId: string }) => r.tradeId === ids[0]).followedRules).toBeNull();
    });

    it('removes a tag by saving the remaining list', async () => {
      const { client, ids } = await traderWithWeek();
      const page = (await client.get('/api/reflections?period=week')).body;
      const tags = page.reflections.find((r: { tradeId: string }) => r.tradeId === ids[0]).tags as string[];
      await client.patch(`/api/reflections/${ids[0]}`, { tags: tags.filter((t) => t !== 'Sweep') });
      const after = (await client.get('/api/reflections?period=week')).body;
      expect(after.reflections.find((r: { tradeId: string }) => r.tradeId === ids[0]).tags).toEqual(['Breakout', 'AM']);
    });

    it('refuses bad values with the field named', async () => {
      const { client, ids } = await traderWithWeek();
      const cases: Array<[unknown, string]> = [
        [{ followed_rules: 'yes' }, 'followed_rules: followed_rules must be true, false or null'],
        [{ tags: ['ok', ''] }, 'tags.1: tags must not be blank'],
        [{ tags: ['x'.repeat(51)] }, 'tags.0: tags must be at most 50 characters each'],
        [{ description: 'x'.repeat(5001) }, 'description: description must be at most 5000 characters'],
        [{}, 'body: Nothing to update'],
        [{ user_id: 'someone' }, 'user_id: is not a field of this request'],
      ];
      for (const [body, message] of cases) {
        const res = await client.patch(`/api/reflections/${ids[0]}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe(message);
      }
      expect((await client.patch('/api/reflections/not-a-uuid', { followed_rules: true })).body.error).toBe('tradeId: tradeId must be a trade id');
    });

    it('never reads or changes another trader’s trade', async () => {
      const alice = await traderWithWeek();
      const bob = await newTrader(app, 'bob');
      const res = await bob.patch(`/api/reflections/${alice.ids[0]}`, { followed_rules: false, tags: ['Hacked'] });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Trade not found');
      const page = (await alice.client.get('/api/reflections?period=week')).body;
      expect(page.reflections.find((r: { tradeId: string }) => r.tradeId === alice.ids[0])).toMatchObject({
        followedRules: null,
        tags: ['Breakout', 'AM', 'Sweep'],
      });
      expect((await bob.get('/api/reflections?period=week')).body.reflections).toEqual([]);
      // Bob's analysis of Alice's trade ids finds nothing of hers.
      const analysis = await bob.post('/api/analyze-reflections', { timeframe: 'week', trades: alice.ids.map((id) => ({ tradeId: id })) });
      expect(analysis.status).toBe(400);
      expect(analysis.body.error).toBe('No trades to analyze');
      expect(provider.completions()).toHaveLength(0);
    });

    it('needs a session', async () => {
      const { ids } = await traderWithWeek();
      expect((await app.client().patch(`/api/reflections/${ids[0]}`, { followed_rules: true })).status).toBe(401);
      expect((await app.client().get('/api/reflections')).status).toBe(401);
      expect((await app.client().post('/api/analyze-reflections', { period: 'week' })).status).toBe(401);
    });
  });

  describe('summary', () => {
    it('summarizes the period, and refuses an empty one', async () => {
      const { client } = await traderWithWeek();
      const res = await client.get('/api/reflections/summary?period=week');
      expect(res.status).toBe(200);
      expect(res.body.headline).toBe('This Week: 4 trades, net $200.25');
      expect(res.body.lines).toContain('2 wins, 1 loss, 1 break-even: 66.7% win rate (break-evens excluded).');
      const empty = await (await newTrader(app)).get('/api/reflections/summary?period=week');
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('No trades to analyze');
    });
  });

  describe('AI analysis', () => {
    it('sends the model our figures and the trades, and keeps our statistics whatever the model writes', async () => {
      const { client } = await traderWithWeek();
      provider.reply({ text: GOOD_ANSWER });
      const { status, contentType, events } = await postSse(client, '/api/analyze-reflections', { period: 'week', offset: 0, account: 'all' });
      expect(status).toBe(200);
      expect(contentType).toContain('text/event-stream');
      expect(events.at(-1)).toBe('[DONE]');
      const progress = events.filter((e) => e.type === 'progress');
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.map((p) => p.percent)).toEqual([...progress.map((p) => p.percent)].sort((a, b) => a - b));
      const { report } = events.find((e) => e.type === 'result');
      expect(report.source).toBe('ai');
      expect(report.notice).toBeNull();
      expect(report.unverifiedFigures).toEqual([]);
      expect(report.analysis.summary).toEqual({ totalTrades: 4, winRate: 66.7, patterns: ['Your AM breakouts carry the week.'] });
      expect(report.analysis.actionPlan).toEqual(['Trade only AM breakouts tomorrow.']);
      expect(report.analysis.statistics.byTimeOfDay).toEqual([
        { session: 'AM', totalTrades: 2, wins: 2, losses: 0, winRate: 100, pnlCents: 40_030 },
        // A break-even only: no win and no loss, so the screen writes '—' rather than 0.0%.
        { session: 'Lunch', totalTrades: 1, wins: 0, losses: 0, winRate: 0, pnlCents: 0 },
        { session: 'PM', totalTrades: 1, wins: 0, losses: 1, winRate: 0, pnlCents: -20_005 },
      ]);
      const [request] = provider.completions();
      expect(request!.body).toMatchObject({ model: 'test-chat-model', stream: true, response_format: { type: 'json_object' } });
      expect(request!.body.messages[0].role).toBe('system');
      expect(request!.body.messages[0].content).toContain('Never calculate a new number');
      const prompt = request!.body.messages[1].content as string;
      expect(prompt).toContain('Period: This Week');
      expect(prompt).toContain('- Net P&L: $200.25; gross profit $400.30; gross loss -$200.05');
      expect(prompt).toContain('- Win rate (break-evens excluded): 66.7%');
      expect(prompt).toMatch(/\| NQ \| PM \| Reversal \| Loss \| -\$200\.05 \| not rated \| Reversal, PM, FOMO \| chased/);
    });

    it('flags money and percentages in the prose that Edgebook never gave the model', async () => {
      const { client } = await traderWithWeek();
      provider.reply({
        text: JSON.stringify({
          summary: { patterns: ['Net P&L $200.25 at a 66.7% win rate.'] },
          strengths: ['Your average winner of $312.50 is strong.'],
          weaknesses: ['You lose 71% of afternoon trades.'],
        }),
      });
      const { events } = await postSse(client, '/api/analyze-reflections', { period: 'week' });
      const { report } = events.find((e) => e.type === 'result');
      expect(report.source).toBe('ai');
      expect(report.unverifiedFigures).toEqual(['$312.50', '71%']);
    });

    it('answers the spec’s {success, analysis} to a plain JSON request with {trades, timeframe}', async () => {
      const { client, ids } = await traderWithWeek();
      provider.reply({ text: GOOD_ANSWER });
      const res = await client.post('/api/analyze-reflections', { timeframe: 'week', trades: [{ id: `r-${ids[0]}` }, { id: `r-${ids[1]}` }] });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.analysis.summary.totalTrades).toBe(2);
      expect(res.body.analysis.strengths).toEqual(['Patient entries on breakouts.']);
    });

    it.each([
      ['empty', { text: '' }, 'Empty response received from server'],
      ['not JSON', { text: 'Here is your analysis: you did great!' }, 'Invalid response format from AI service'],
      ['missing fields', { text: JSON.stringify({ summary: { patterns: ['x'] }, strengths: ['y'] }) }, 'Response is missing required fields'],
      ['a 500', { status: 500 }, 'Error connecting to AI API (500). Please try again later.'],
      ['a 401', { status: 401 }, 'Error connecting to AI API (401). Please try again later.'],
      ['a 429', { status: 429 }, 'Error connecting to AI API (429). Please try again later.'],
      ['a broken body', { invalidJson: true }, 'Error: Received invalid response from API. Please try again.'],
    ])('falls back to the local analysis on %s, saying why', async (_name, reply, detail) => {
      const { client } = await traderWithWeek();
      provider.reply(reply, reply);
      const { events } = await postSse(client, '/api/analyze-reflections', { period: 'week' });
      const { report } = events.find((e) => e.type === 'result');
      expect(report.source).toBe('local');
      expect(report.notice).toEqual({
        title: 'Connection Error',
        message: 'Unable to connect to the AI analysis server. Using local analysis instead.',
        detail,
      });
      expect(report.analysis.summary.totalTrades).toBe(4);
      expect(report.analysis.summary.patterns[0]).toBe('Net P&L $200.25 over 4 trades on 3 trading days: 2 wins, 1 loss, 1 break-even.');
    });

    it('strips a markdown fence around the JSON, as local models often add one', async () => {
      const { client } = await traderWithWeek();
      provider.reply({ text: '```json\n' + GOOD_ANSWER + '\n```' });
      const { events } = await postSse(client, '/api/analyze-reflections', { period: 'week' });
      expect(events.find((e) => e.type === 'result').report.source).toBe('ai');
    });

    it('cancels the provider request when the browser closes the analysis', async () => {
      const { client } = await traderWithWeek();
      provider.reply({ text: GOOD_ANSWER, delayMs: 200 });
      const controller = new AbortController();
      const { events } = await openSse(client, '/api/analyze-reflections', { period: 'week' }, controller.signal);
      for await (const event of events) {
        if (event.type === 'progress' && event.stage === 'Writing your analysis') break;
        if (event.type === 'progress' && event.stage === 'Asking the AI analyst') {
          await provider.waitForRequests(1);
          controller.abort();
          break;
        }
      }
      await provider.waitForAbort(0);
      expect(provider.completions()).toHaveLength(1);
      // The server is still well after the abort.
      expect((await client.get('/api/reflections?period=week')).status).toBe(200);
    });

    it('refuses to analyze an empty period with the spec’s words', async () => {
      const client = await newTrader(app);
      const { events } = await postSse(client, '/api/analyze-reflections', { period: 'day' });
      expect(events.find((e) => e.type === 'error')).toEqual({ type: 'error', status: 400, message: 'No trades to analyze' });
      expect(events.find((e) => e.type === 'result')).toBeUndefined();
      expect(provider.completions()).toHaveLength(0);
    });

    it('compares a week with the previous four in the report', async () => {
      const { client } = await traderWithWeek();
      provider.reply({ text: GOOD_ANSWER });
      const { events } = await postSse(client, '/api/analyze-reflections', { period: 'week' });
      const { report } = events.find((e) => e.type === 'result');
      expect(report.comparison.previous).toHaveLength(4);
      expect(report.comparison.previous.at(-1)).toMatchObject({ totalTrades: 1, pnlCents: 5_000 });
      expect(report.adherence).toMatchObject({ rated: 0, unrated: 4 });
      // None of these trades has a planned risk: the comparison in R says so rather than a dollar figure.
      expect(report.r.comparison).toMatchObject({
        unit: 'week',
        previousAverageR: null,
        changeR: null,
        text: 'No trade of the previous 4 weeks has a planned risk: nothing to compare in R.',
      });
    });

    it('compares the week with the previous four in R too, from exact sums, trades without a plan counted apart', async () => {
      const client = await newTrader(app, 'reflect-r');
      const monday = getStartOfWeekMonday(today());
      const other = await newTrader(app, 'reflect-r-other');
      for (const t of [
        { date: monday, pnl: '200', risk_amount: '100' }, // +2R this week
        { date: monday, pnl: '-30', risk_amount: null }, // no plan: apart
        { date: addDays(monday, -7), pnl: '10', risk_amount: '30' }, // 1/3R
        { date: addDays(monday, -6), pnl: '10', risk_amount: '30' }, // 1/3R
        { date: addDays(monday, -5), pnl: '10', risk_amount: '30' }, // 1/3R: the week is +1R exactly
        { date: addDays(monday, -28), pnl: '-100', risk_amount: '50' }, // -2R, four weeks back
        { date: addDays(monday, -29), pnl: '500', risk_amount: '1' }, // five weeks back: not compared
      ]) {
        await createTrade(client, { symbol: 'NQ', trade_type: 'Breakout', ...t });
      }
      // Another trader's trade in the same weeks never counts.
      await createTrade(other, { date: addDays(monday, -7), symbol: 'NQ', pnl: '900', risk_amount: '100' });
      provider.reply({ text: GOOD_ANSWER });
      const { events } = await postSse(client, '/api/analyze-reflections', { period: 'week' });
      const { report } = events.find((e) => e.type === 'result');
      expect(report.r.comparison.previous.map((p: { from: string; trades: number; totalR: number | null }) => [p.from, p.trades, p.totalR])).toEqual([
        [addDays(monday, -28), 1, -2],
        [addDays(monday, -21), 0, null],
        [addDays(monday, -14), 0, null],
        [addDays(monday, -7), 3, 1],
      ]);
      // (-2 + 1) / 4 = -0.25R a week; this week +2R: +2.25R.
      expect([report.r.comparison.previousAverageR, report.r.comparison.changeR]).toEqual([-0.25, 2.25]);
      expect(report.r.comparison.text).toBe(
        'Net +2.00R against an average of -0.25R per week over the previous 4 weeks (+2.25R). This week: 1 trade without a planned risk, left out.',
      );
      // The dollar comparison is unchanged beside it.
      expect(report.comparison.previous.at(-1)).toMatchObject({ totalTrades: 3, pnlCents: 3_000 });
      const prompt = provider.completions()[0]!.body.messages[1].content as string;
      expect(prompt).toContain('- Net +2.00R against an average of -0.25R per week over the previous 4 weeks (+2.25R).');
    });
  });
});

describe('reflections without an AI provider', () => {
  let app: TestApp;
  let provider: AiServer;
  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  it('says AI is not configured (never a key), and analyses locally without any request going out', async () => {
    const config = (await app.client().get('/api/config')).body;
    expect(config.ai).toEqual({ configured: false, model: null, reasoningModel: null });
    const client = await newTrader(app);
    await createTrade(client, { date: today(), pnl: '10', trade_type: 'Breakout' });
    const { events } = await postSse(client, '/api/analyze-reflections', { period: 'day' });
    const { report } = events.find((e) => e.type === 'result');
    expect(report.source).toBe('local');
    expect(report.notice.title).toBe('AI not configured');
    expect(report.notice.message).toContain('AI_BASE_URL');
    expect(provider.requests).toHaveLength(0);
  });
});

describe('AI configuration in /api/config', () => {
  it('names the models but never the key or the provider’s address', async () => {
    const provider = await startAiServer();
    const app = await startTestApp({ env: aiEnv(provider) });
    try {
      const res = await app.client().get('/api/config');
      expect(res.body.ai).toEqual({ configured: true, model: 'test-chat-model', reasoningModel: 'test-reasoning-model' });
      expect(JSON.stringify(res.body)).not.toContain('sk-test-key');
      expect(JSON.stringify(res.body)).not.toContain(provider.url);
    } finally {
      await app.close();
      await provider.close();
    }
  });
});
