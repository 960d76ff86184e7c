import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propAccountDetail, propStatusList, ruleSet } from '../../src/contract/prop';
import { EMPTY_RULE_SET, type PropRuleSet } from '../../src/domain/prop';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createTrade, importTrades, newTrader } from './trades-support';

/**
 * Prop rules over HTTP on both databases, read from stored trades: trades are taken in the order their P&L was
 * realized and on the trading day of their exit (a trade that closes before an earlier-entered one; a trade across
 * the 18:00 New York reopen, by the exchange's day and by the calendar's), the position limit from stored fills, hard
 * and soft breaches, and one verdict on the account's page and in the list.
 */
const DAILY: PropRuleSet = { ...EMPTY_RULE_SET, dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' } };

/** A backup row of a closed NQ trade, times in New York (EDT in late March 2026). */
const row = (date: string, pnl: string, entry: string, exit: string, exitDate = date) => ({
  date,
  pnl,
  period: 'AM',
  commission: '0',
  symbol: 'NQ',
  contract: 'NQM6',
  quantity: '1',
  entry_time: `${date}T${entry}-04:00`,
  exit_time: `${exitDate}T${exit}-04:00`,
});

describe.each(backends())('prop rules in realized order on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  async function propAccount(client: ApiClient, name: string, rules: PropRuleSet) {
    const account = (await client.post('/api/accounts', { name, kind: 'evaluation', size: 50000, starting_balance: '50000', firm: 'Topstep' }))
      .body as { id: string };
    conforms(ruleSet, await client.json('PUT', `/api/prop/accounts/${account.id}/rules`, { rules }));
    return account.id;
  }
  const statusOf = async (client: ApiClient, id: string) => conforms(propAccountDetail, await client.get(`/api/prop/accounts/${id}`)).status!;

  it('a trade that closes before an earlier-entered one: the $1,000 daily limit breaks at 10:15:20 at -$1,024.20, not after at -$723.40', async () => {
    const trader = await newTrader(app, 'realized-order');
    const id = await propAccount(trader, 'Order', DAILY);
    await importTrades(trader, id, [
      row('2026-03-16', '-600.00', '09:40:00', '09:50:00'),
      // Entered first, closed last.
      row('2026-03-16', '300.80', '10:14:05', '10:15:45'),
      row('2026-03-16', '-424.20', '10:14:30', '10:15:20'),
    ]);
    const status = await statusOf(trader, id);
    expect(status.timeline.map((p) => [p.at, p.dayNetCents])).toEqual([
      ['2026-03-16T13:50:00.000Z', -60_000],
      ['2026-03-16T14:15:20.000Z', -102_420],
      ['2026-03-16T14:15:45.000Z', -72_340],
    ]);
    expect(status.brokenBy).toMatchObject({ rule: 'dailyLoss', day: '2026-03-16', at: '2026-03-16T14:15:20.000Z', value: -102_420, limit: -100_000 });
    expect(status.days).toEqual([
      expect.objectContaining({ day: '2026-03-16', netCents: -72_340, lowNetCents: -102_420, dailyLossRoomCents: -2_420 }),
    ]);
    expect(status).toMatchObject({ outcome: 'broken', headline: 'Daily loss limit broken on Mar 16, 2026' });
  });

  it("a trade across the 18:00 reopen counts on Friday, its exit's trading day; by calendar days on Thursday", async () => {
    const trader = await newTrader(app, 'realized-day');
    const id = await propAccount(trader, 'Across', DAILY);
    await importTrades(trader, id, [
      row('2026-03-19', '-700.00', '09:55:00', '10:00:00'),
      // Thursday 16:02 to 18:06: realized in Friday's session.
      row('2026-03-19', '-400.00', '16:02:00', '18:06:00'),
      row('2026-03-20', '-650.00', '09:40:00', '09:50:00'),
    ]);
    const exchange = await statusOf(trader, id);
    expect(exchange.days.map((d) => [d.day, d.netCents, d.trades])).toEqual([
      ['2026-03-19', -70_000, 1],
      ['2026-03-20', -105_000, 2],
    ]);
    expect(exchange.brokenBy).toMatchObject({ rule: 'dailyLoss', day: '2026-03-20', at: '2026-03-20T13:50:00.000Z', value: -105_000 });

    // The trader's own rule is the prop status's: by calendar days the 18:06 exit is Thursday's, and Thursday breaks.
    expect((await trader.patch('/api/preferences', { trading_day: 'calendar' })).status).toBe(200);
    const calendar = await statusOf(trader, id);
    expect(calendar.days.map((d) => [d.day, d.netCents])).toEqual([
      ['2026-03-19', -110_000],
      ['2026-03-20', -65_000],
    ]);
    expect(calendar.brokenBy).toMatchObject({ day: '2026-03-19', at: '2026-03-19T22:06:00.000Z', value: -110_000 });
  });

  describe('position size from stored fills', () => {
    /** A manual ES or MES trade on Monday 2026-03-16 whose fills are then saved (times UTC). */
    async function filled(client: ApiClient, accountId: string, symbol: string, fills: Array<[string, 'Buy' | 'Sell', number, string]>) {
      const trade = await createTrade(client, { date: '2026-03-16', symbol, account_id: accountId, pnl: 0 });
      const res = await client.put(`/api/trades/${trade.id}/fills`, {
        fills: fills.map(([time, side, quantity, price]) => ({ time: `2026-03-16T${time}:00Z`, side, quantity, price, commission: '0' })),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return trade.id;
    }
    // ES: buy 3, sell 1, buy 2, sell 4 (5 bought, at most 4 held); MES: 2 bought at 13:58, down to 1 at 14:03, flat at 14:08.
    const scaled = (client: ApiClient, id: string) =>
      Promise.all([
        filled(client, id, 'ESM6', [
          ['14:00', 'Buy', 3, '5600'],
          ['14:05', 'Sell', 1, '5602'],
          ['14:10', 'Buy', 2, '5601'],
          ['14:20', 'Sell', 4, '5604'],
        ]),
        filled(client, id, 'MESM6', [
          ['13:58', 'Buy', 2, '5600'],
          ['14:03', 'Sell', 1, '5601'],
          ['14:08', 'Sell', 1, '5603'],
        ]),
      ]);
    const positionRules = (onBreach: 'fail' | 'close-trade'): PropRuleSet => ({
      ...EMPTY_RULE_SET,
      profitTargetCents: 50_000,
      maxPosition: { contracts: 5, onBreach },
    });

    it('scaling in and out with an overlapping MES: at most 4 ES-equivalents, nothing over 5, one verdict on the page and in the list', async () => {
      const trader = await newTrader(app, 'position-fills');
      const id = await propAccount(trader, 'Scaling', positionRules('fail'));
      await scaled(trader, id);
      const status = await statusOf(trader, id);
      expect(status.days).toEqual([expect.objectContaining({ day: '2026-03-16', peakContracts: 4 })]);
      expect(status.breaches).toEqual([]);
      // The fills' P&L: ES 16 points at $50 and MES 4 points at $5, $820 against a $500 target.
      expect(status).toMatchObject({
        profitCents: 82_000,
        outcome: 'passed',
        passedOn: '2026-03-16',
        headline: 'Passed on Mar 16, 2026: target and rules met',
      });
      const [line] = conforms(propStatusList, await trader.get('/api/prop/status')).accounts;
      expect(line).toMatchObject({ outcome: 'passed', headline: status.headline, passed_on: '2026-03-16', soft_breaches: 0, broken_by: null });
    });

    it('20 more MES with 2 more ES at 14:10 make 6: soft, the account passes with a soft breach for each trade that added; hard, it fails at 14:10', async () => {
      const trader = await newTrader(app, 'position-hard-soft');
      const soft = await propAccount(trader, 'Soft', positionRules('close-trade'));
      const hard = await propAccount(trader, 'Hard', positionRules('fail'));
      for (const id of [soft, hard]) {
        await scaled(trader, id);
        await filled(trader, id, 'MESM6', [
          ['14:10', 'Buy', 20, '5601'],
          ['14:12', 'Sell', 20, '5601'],
        ]);
      }
      const softStatus = await statusOf(trader, soft);
      expect(softStatus.breaches.map((b) => [b.rule, b.value, b.fatal, b.at])).toEqual([
        ['maxPosition', 6, false, '2026-03-16T14:10:00.000Z'],
        ['maxPosition', 6, false, '2026-03-16T14:10:00.000Z'],
      ]);
      expect(softStatus).toMatchObject({
        outcome: 'passed',
        brokenBy: null,
        headline: 'Passed on Mar 16, 2026: target and rules met, 2 soft breaches',
      });
      const hardStatus = await statusOf(trader, hard);
      expect(hardStatus.brokenBy).toMatchObject({ rule: 'maxPosition', value: 6, fatal: true, at: '2026-03-16T14:10:00.000Z' });
      expect(hardStatus).toMatchObject({ outcome: 'broken', state: 'broken', headline: 'Position size broken on Mar 16, 2026' });
      const list = conforms(propStatusList, await trader.get('/api/prop/status')).accounts;
      expect(list.map((a) => [a.account.name, a.outcome, a.headline]).sort()).toEqual([
        ['Hard', 'broken', 'Position size broken on Mar 16, 2026'],
        ['Soft', 'passed', 'Passed on Mar 16, 2026: target and rules met, 2 soft breaches'],
      ]);
    });
  });

  it('refuses a hard consistency rule of the total profit, naming the field', async () => {
    const trader = await newTrader(app, 'consistency-hard');
    const id = await propAccount(trader, 'Consistency', DAILY);
    const res = await trader.json('PUT', `/api/prop/accounts/${id}/rules`, {
      rules: { consistency: { maxBestDayPct: 50, of: 'profit', onBreach: 'fail' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^rules\.consistency\.onBreach: /);
  });
});
