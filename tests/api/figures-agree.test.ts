import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/domain/cents';
import { getTodayInZone } from '../../src/domain/dates';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';
import { createAccount, createTrade, importTrades, money, newTrader } from './trades-support';

/**
 * One engine for every figure: for random trades, the Trade Log's statistics, the Reports' overview, Reflect's month,
 * the analyst's statistics tool and a prop account's status read the same trades through the same formulas, so their
 * counts, results and net P&L agree to the cent for the same trades.
 */
const NY = 'America/New_York';

interface RandomTrade {
  day: number;
  pnlCents: number;
  account: 0 | 1 | 2;
  symbol: 'NQ' | 'MES';
  entryMinute: number | null;
}

const tradeArb: fc.Arbitrary<RandomTrade> = fc.record({
  day: fc.nat(27),
  pnlCents: fc.oneof(fc.integer({ min: -80_000, max: 80_000 }), fc.constant(0)),
  account: fc.constantFrom(0, 1, 2),
  symbol: fc.constantFrom('NQ', 'MES'),
  entryMinute: fc.option(fc.integer({ min: 0, max: 23 * 60 }), { nil: null }),
}) as fc.Arbitrary<RandomTrade>;

describe.each(backends())('every figure from one engine on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '500' }) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });
  beforeEach(() => provider.clear());

  /** The days of this month up to today, in the trader's zone: Reflect's month (offset 0) holds them all. */
  function monthDays(): string[] {
    const today = getTodayInZone(new Date(), NY);
    const days: string[] = [];
    for (let d = 1; d <= Number(today.slice(8, 10)); d++) days.push(`${today.slice(0, 8)}${String(d).padStart(2, '0')}`);
    return days;
  }

  async function statisticsTool(client: ApiClient, args: Record<string, unknown>) {
    const sessionId = (await client.get('/api/chat/sessions/current')).body.id as string;
    provider.clear();
    provider.reply({ toolCalls: [{ name: 'get_statistics', arguments: args }] }, { text: 'Here are your figures.' }, { text: 'Figures' });
    await postSse(client, '/api/chat', { sessionId, message: 'How did my trades go?' });
    const tool = provider.completions()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    return JSON.parse(tool.content) as { trades: number; wins: number; losses: number; break_evens: number; net_pnl: string };
  }

  it('the Trade Log, the Reports, Reflect, the analyst and the prop status agree for random trades', async () => {
    const days = monthDays();
    await fc.assert(
      fc.asyncProperty(fc.array(tradeArb, { minLength: 1, maxLength: 40 }), async (randomTrades) => {
        const client = await newTrader(app, 'agree');
        const accounts = [(await createAccount(client, 'Combine')).id, (await createAccount(client, 'Personal')).id];
        // The first account is a prop account: a rule set with a target, no limit it could break.
        expect((await client.request('PUT', `/api/prop/accounts/${accounts[0]}/rules`, { rules: { profitTargetCents: 100_000_000 } })).status).toBe(
          200,
        );
        const rowOf = (t: RandomTrade, n: number) => {
          const day = days[t.day % days.length]!;
          const entry = t.entryMinute === null ? null : new Date(Date.parse(`${day}T05:00:00Z`) + t.entryMinute * 60_000);
          return {
            id: `a${n}`,
            date: day,
            symbol: t.symbol,
            period: 'AM',
            pnl: money(t.pnlCents),
            entry_time: entry?.toISOString() ?? null,
            exit_time: entry ? new Date(entry.getTime() + 90_000).toISOString() : null,
          };
        };
        for (const k of [0, 1] as const) {
          const rows = randomTrades.flatMap((t, n) => (t.account === k ? [rowOf(t, n)] : []));
          if (rows.length > 0) await importTrades(client, accounts[k]!, rows);
        }
        for (const [n, t] of randomTrades.entries()) {
          if (t.account !== 2) continue;
          const { id: _id, ...fields } = rowOf(t, n);
          await createTrade(client, fields);
        }

        for (const [scope, query, reflectAccount, toolAccount] of [
          ['every account', '', 'all', undefined],
          ['the prop account', `account=${accounts[0]}`, accounts[0]!, 'Combine'],
        ] as const) {
          const stats = (await client.get(`/api/trades/stats${query ? `?${query}` : ''}`)).body.summary;
          const overview = (await client.get(`/api/reports/overview${query ? `?${query}` : ''}`)).body.overview;
          const reflect = (await client.get(`/api/reflections?period=month&offset=0&account=${reflectAccount}`)).body.statistics.totals;
          const tool = await statisticsTool(client, toolAccount ? { account: toolAccount } : {});
          const expected = randomTrades.filter((t) => scope === 'every account' || t.account === 0);
          const net = expected.reduce((sum, t) => sum + t.pnlCents, 0);
          const wins = expected.filter((t) => t.pnlCents > 0).length;
          const losses = expected.filter((t) => t.pnlCents < 0).length;
          expect([stats.trades, overview.trades, reflect.totalTrades, tool.trades], scope).toEqual(Array(4).fill(expected.length));
          expect([stats.pnlCents, overview.netCents, reflect.pnlCents], scope).toEqual([net, net, net]);
          expect(tool.net_pnl, scope).toBe(formatUsd(net));
          expect([stats.wins, overview.wins, reflect.wins, tool.wins], scope).toEqual(Array(4).fill(wins));
          expect([stats.losses, overview.losses, reflect.losses, tool.losses], scope).toEqual(Array(4).fill(losses));
          if (scope === 'the prop account') {
            const [prop] = (await client.get('/api/prop/status')).body.accounts;
            expect([prop.trades, prop.profit_cents], scope).toEqual([expected.length, net]);
          }
        }
      }),
      { numRuns: backend === 'pglite' ? 5 : 3 },
    );
  }, 300_000);
});
