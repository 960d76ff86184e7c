import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatShortDay } from '../../src/domain/dates';
import { marketDayOf } from '../../src/domain/market-time';
import { EMPTY_RULE_SET } from '../../src/domain/prop';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';
import { createTrade, newTrader } from './trades-support';

/**
 * ReflectAI's prop tool: "how far is my 50K from its daily loss limit?" answered with the figures of the
 * status page's own evaluation, its "computed from" line, and never another trader's account, against the tests'
 * OpenAI-compatible server on both databases.
 */
describe.each(backends())('ReflectAI and prop accounts on %s', (backend) => {
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

  async function ask(client: ApiClient, message: string) {
    const session = (await client.get('/api/chat/sessions/current')).body.id as string;
    return postSse(client, '/api/chat', { sessionId: session, message });
  }
  const toolResults = () =>
    provider
      .completions()[1]!
      .body.messages.filter((m: { role: string }) => m.role === 'tool')
      .map((m: { content: string }) => JSON.parse(m.content));

  it('how far is my 50K from its daily loss limit: $449.50, the figure of its status page', async () => {
    provider.clear();
    const trader = await newTrader(app, 'prop-ai');
    const account = (
      await trader.post('/api/accounts', { name: 'Topstep 50K Combine', kind: 'evaluation', firm: 'Topstep', size: 50000, starting_balance: 50000 })
    ).body;
    await trader.json('PUT', `/api/prop/accounts/${account.id}/rules`, {
      rules: { ...EMPTY_RULE_SET, dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' }, profitTargetCents: 300_000 },
    });
    const today = marketDayOf(Date.now(), { rule: 'exchange' }).tradingDay;
    await createTrade(trader, { date: today, pnl: '-300', account_id: account.id });
    await createTrade(trader, { date: today, pnl: '-250.50', account_id: account.id });

    provider.reply(
      { toolCalls: [{ name: 'get_prop_status', arguments: { account: 'my 50K' } }] },
      { text: 'Your 50K has $449.50 left before its daily loss limit.' },
      { text: 'Daily loss room' },
    );
    const { events } = await ask(trader, 'How far is my 50K from its daily loss limit?');
    expect(events.find((e) => e.type === 'tool')).toMatchObject({
      name: 'get_prop_status',
      label: 'Checking your prop accounts against their rules',
    });
    const source = events.find((e) => e.type === 'source');
    expect(source).toMatchObject({ tool: 'get_prop_status', trades: 2 });
    expect(source.text).toBe(
      `computed from 2 closed trades of Topstep 50K Combine, ${formatShortDay(today)}, ${today.slice(0, 4)} (realized P&L net of fees, by each account's rules)`,
    );
    const [result] = toolResults();
    expect(result.accounts).toHaveLength(1);
    expect(result.accounts[0]).toMatchObject({ account: 'Topstep 50K Combine', balance: '$49,449.50', profit: '-$550.50', status: 'on track' });
    const daily = result.accounts[0].rules.find((r: { rule: string }) => r.rule === 'Daily loss limit');
    expect(daily).toMatchObject({ state: 'ok', distance_left: '$449.50' });
    // The same evaluation as the status page.
    const page = (await trader.get(`/api/prop/accounts/${account.id}`)).body.status;
    expect(page.rules.find((r: { rule: string }) => r.rule === 'dailyLoss').distanceCents).toBe(44_950);
    expect(result.note).toContain('open positions and their prices are not known');
    // The answer's figure came from the tool: nothing flagged as unverified.
    expect(events.find((e) => e.type === 'done').message.meta.unverified).toBeUndefined();
  });

  it("gives the model nothing of another trader's prop accounts", async () => {
    provider.clear();
    const alice = await newTrader(app, 'prop-ai-alice');
    const account = (await alice.post('/api/accounts', { name: 'Alice 50K', kind: 'funded', size: 50000, starting_balance: 50000 })).body;
    await alice.json('PUT', `/api/prop/accounts/${account.id}/rules`, {
      rules: { maxLoss: { amountCents: 200_000, trailing: 'static', lockAboveStartCents: null } },
    });
    await createTrade(alice, { date: '2026-03-16', pnl: '777', account_id: account.id });
    const bob = await newTrader(app, 'prop-ai-bob');
    provider.reply(
      {
        toolCalls: [
          { name: 'get_prop_status', arguments: { account: 'Alice 50K' } },
          { name: 'get_prop_status', arguments: { account: account.id } },
        ],
      },
      { text: 'You have no prop accounts.' },
      { text: 'x' },
    );
    await ask(bob, 'How is Alice 50K doing?');
    const message = 'The trader has no account with prop-firm rules yet (an account page, Rules & Status, sets them up)';
    expect(toolResults()).toEqual([{ error: message }, { error: message }]);
    expect(JSON.stringify(provider.completions()[1]!.body).replaceAll(account.id, '')).not.toContain('777');
  });
});
