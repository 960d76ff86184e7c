import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger as ledgerSchema, propAccountDetail, propStatusList, ruleSet } from '../../src/contract/prop';
import { tradingAccount } from '../../src/contract/accounts';
import { importOutcome } from '../../src/contract/imports';
import { overviewReport } from '../../src/contract/reports';
import { findPropTemplate, EMPTY_RULE_SET, type PropRuleSet } from '../../src/domain/prop';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { importFile } from './imports-support';
import { createAccount, importTrades, newTrader } from './trades-support';

/**
 * Prop-firm accounts over HTTP on both databases: account kinds and starting balances, rule sets (from a
 * template or from scratch, every limit's field named in a 400), each account's status from its trades in trading
 * order, the ledger and its ROI, two accounts of one broker file, and another trader's ids changing nothing.
 */
const TWO_ACCOUNTS = fs.readFileSync(new URL('../../src/domain/prop/fixtures/two-evaluations-orders.csv', import.meta.url), 'utf8');
const put = (client: ApiClient, path: string, body: unknown) => client.json('PUT', path, body);
const del = (client: ApiClient, path: string) => client.json('DELETE', path);
const MISSING = '00000000-0000-4000-8000-000000000000';

const dailyLimit = (limitCents: number, check: 'intraday' | 'end-of-day' = 'intraday'): PropRuleSet => ({
  ...EMPTY_RULE_SET,
  dailyLoss: { limitCents, onBreach: 'fail', check },
  maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 },
  profitTargetCents: 300_000,
});

/** A backup row of a closed trade with its times (New York, 2026-03). */
const trade = (date: string, pnl: string, entry: string, exit: string, extra: Record<string, unknown> = {}) => ({
  date,
  pnl,
  period: 'AM',
  commission: '0',
  symbol: 'NQ',
  contract: 'NQH6',
  quantity: '1',
  entry_time: `${date}T${entry}:00-04:00`,
  exit_time: `${date}T${exit}:00-04:00`,
  ...extra,
});

describe.each(backends())('prop-firm accounts on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
  });
  afterAll(() => app?.close());

  async function propAccount(client: ApiClient, name: string, extra: Record<string, unknown> = {}) {
    const res = await client.post('/api/accounts', { name, kind: 'evaluation', size: 50000, starting_balance: '50000', firm: 'Topstep', ...extra });
    return conforms(tradingAccount, res, 201);
  }

  describe('accounts have a kind, a size, a starting balance and a firm', () => {
    it('a new account is personal with the spec default 10000 and no size or firm; a prop account keeps what was given', async () => {
      const plain = await createAccount(alice, 'Plain');
      expect(plain).toMatchObject({ kind: 'personal', size: null, starting_balance: '10000.00', firm: null });
      const prop = await propAccount(alice, 'Combine 50K');
      expect(prop).toMatchObject({ kind: 'evaluation', size: '50000.00', starting_balance: '50000.00', firm: 'Topstep' });
      const edited = conforms(
        tradingAccount,
        await alice.patch(`/api/accounts/${prop.id}`, { kind: 'funded', starting_balance: 50_250.5, firm: '' }),
      );
      expect(edited).toMatchObject({ kind: 'funded', starting_balance: '50250.50', firm: null, size: '50000.00' });
    });

    it('refuses a bad kind, size or balance naming the field, and changes nothing', async () => {
      const account = await propAccount(alice, 'Typos');
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ kind: 'demo' }, /^kind: /],
        [{ size: 0 }, /^size: /],
        [{ size: 'fifty' }, /^size: /],
        [{ starting_balance: '1e12' }, /^starting_balance: /],
        [{ starting_balance: 1_000_000_000 }, /^starting_balance: /],
        [{ firm: 'x'.repeat(101) }, /^firm: /],
      ];
      for (const [body, message] of cases) {
        const res = await alice.patch(`/api/accounts/${account.id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error, JSON.stringify(body)).toMatch(message);
      }
      const list = (await alice.get('/api/accounts')).body as Array<{ id: string }>;
      expect(list.find((a) => a.id === account.id)).toMatchObject({
        kind: 'evaluation',
        size: '50000.00',
        starting_balance: '50000.00',
        firm: 'Topstep',
      });
    });

    it("the Reports' opening balance is the filter's accounts' own starting balances, summed for all of them", async () => {
      const trader = await newTrader(app, 'reports-balance');
      const opening = async (query: string) => conforms(overviewReport, await trader.get(`/api/reports/overview${query}`)).openingBalanceCents;
      // Without any account: the spec's default.
      expect(await opening('')).toBe(1_000_000);
      const a = await propAccount(trader, 'Fifty');
      const b = await propAccount(trader, 'Twenty-five', { size: 25000, starting_balance: '25000' });
      await importTrades(trader, a.id, [trade('2026-03-02', '100.00', '09:40', '09:50')]);
      expect(await opening('')).toBe(7_500_000);
      expect(await opening(`?account=${b.id}`)).toBe(2_500_000);
      // From the day after: A's start and its P&L before the range.
      expect(await opening(`?account=${a.id}&from=2026-03-03`)).toBe(5_010_000);
      expect(await opening(`?account=${a.id}&account=${b.id}`)).toBe(7_500_000);
    });
  });

  describe('rule sets', () => {
    it('from a template: stored as sent, with its template id, and read back on the account', async () => {
      const account = await propAccount(alice, 'From template');
      const template = findPropTemplate('topstep-combine-50k')!;
      const saved = conforms(
        ruleSet,
        await put(alice, `/api/prop/accounts/${account.id}/rules`, { template_id: template.id, rules: template.rules }),
      );
      expect(saved).toMatchObject({ account_id: account.id, template_id: template.id, rules: template.rules, starts_on: null, active: true });
      const detail = conforms(propAccountDetail, await alice.get(`/api/prop/accounts/${account.id}`));
      expect(detail.rule_set?.rules).toEqual(template.rules);
      expect(detail.status).toMatchObject({ balanceCents: 5_000_000, outcome: 'active', basis: 'realized' });
    });

    it('from scratch with only some limits: the others default to none', async () => {
      const account = await propAccount(alice, 'Scratch');
      const saved = conforms(ruleSet, await put(alice, `/api/prop/accounts/${account.id}/rules`, { rules: { profitTargetCents: 150_000 } }));
      expect(saved.rules).toEqual({ ...EMPTY_RULE_SET, profitTargetCents: 150_000 });
      expect(saved.template_id).toBeNull();
    });

    it('refuses every bad limit with its field named, and keeps the rule set it had', async () => {
      const account = await propAccount(alice, 'Bad rules');
      await put(alice, `/api/prop/accounts/${account.id}/rules`, { rules: dailyLimit(100_000) });
      const cases: Array<[unknown, string]> = [
        [{ rules: { dailyLoss: { limitCents: -5, onBreach: 'fail', check: 'intraday' } } }, 'rules.dailyLoss.limitCents'],
        [{ rules: { dailyLoss: { limitCents: 100.5, onBreach: 'fail', check: 'intraday' } } }, 'rules.dailyLoss.limitCents'],
        [{ rules: { dailyLoss: { limitCents: 1000, onBreach: 'warn', check: 'intraday' } } }, 'rules.dailyLoss.onBreach'],
        [{ rules: { maxLoss: { amountCents: 200_000, trailing: 'weekly', lockAboveStartCents: null } } }, 'rules.maxLoss.trailing'],
        [{ rules: { maxLoss: { amountCents: 200_000, trailing: 'intraday', lockAboveStartCents: -1 } } }, 'rules.maxLoss.lockAboveStartCents'],
        [{ rules: { consistency: { maxBestDayPct: 140, of: 'profit' } } }, 'rules.consistency.maxBestDayPct'],
        [{ rules: { minTradingDays: 0 } }, 'rules.minTradingDays'],
        [{ rules: { minProfitDays: { days: 5, minCents: 'x' } } }, 'rules.minProfitDays.minCents'],
        [{ rules: { maxPosition: { contracts: 2.5 } } }, 'rules.maxPosition.contracts'],
        [{ rules: { tradingHours: { flatBy: '25:10' } } }, 'rules.tradingHours.flatBy'],
        [{ rules: { tradingHours: { flatBy: '16:10', timeZone: 'Mars/Olympus' } } }, 'rules.tradingHours.timeZone'],
        [{ rules: { tradingHours: { flatBy: null, noTradingDates: ['2026-02-30'] } } }, 'rules.tradingHours.noTradingDates.0'],
        [{ rules: { payout: { minBalanceAboveStartCents: 0 } } }, 'rules.payout.minBalanceAboveStartCents'],
        [{ rules: { profitTargetCents: 1, surprise: true } }, 'rules.surprise'],
        [{ rules: {}, starts_on: '2026-13-01' }, 'starts_on'],
        [{ rules: {}, template_id: 'no-such-plan' }, 'template_id'],
      ];
      for (const [body, field] of cases) {
        const res = await put(alice, `/api/prop/accounts/${account.id}/rules`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.startsWith(`${field}: `), `${res.body.error} for ${JSON.stringify(body)}`).toBe(true);
      }
      const detail = (await alice.get(`/api/prop/accounts/${account.id}`)).body;
      expect(detail.rule_set.rules).toEqual(dailyLimit(100_000));
    });
  });

  describe('status', () => {
    it('-$600, -$500, +$400 on one day: broken at the second trade and its exit, on the day, with the balance of each trade', async () => {
      const account = await propAccount(alice, 'Dip and recover');
      await put(alice, `/api/prop/accounts/${account.id}/rules`, { rules: dailyLimit(100_000) });
      // Sent out of order: the status reads them in trading order (day, entry, exit), not as stored.
      await importTrades(alice, account.id, [
        trade('2026-03-16', '400', '11:00', '11:10'),
        trade('2026-03-16', '-600', '09:40', '09:50'),
        trade('2026-03-16', '-500', '10:00', '10:20'),
      ]);
      const detail = conforms(propAccountDetail, await alice.get(`/api/prop/accounts/${account.id}`));
      const status = detail.status!;
      expect(status.timeline.map((p) => [p.at, p.balanceCents])).toEqual([
        ['2026-03-16T13:50:00.000Z', 4_940_000],
        ['2026-03-16T14:20:00.000Z', 4_890_000],
        ['2026-03-16T15:10:00.000Z', 4_930_000],
      ]);
      expect(status.brokenBy).toMatchObject({
        rule: 'dailyLoss',
        day: '2026-03-16',
        at: '2026-03-16T14:20:00.000Z',
        value: -110_000,
        limit: -100_000,
      });
      expect(status.outcome).toBe('broken');
      expect(detail.trades).toBe(3);

      // The end-of-day rule sees a -$700 close: nothing broken. The status follows the rule set's change at once.
      await put(alice, `/api/prop/accounts/${account.id}/rules`, { rules: dailyLimit(100_000, 'end-of-day') });
      const eod = conforms(propAccountDetail, await alice.get(`/api/prop/accounts/${account.id}`)).status!;
      expect(eod.brokenBy).toBeNull();
      expect(eod.balanceCents).toBe(4_930_000);
    });

    it("follows every change of the account's trades: an edit, a move to another account, a delete, a reset day", async () => {
      const account = await propAccount(alice, 'Changing');
      const other = await propAccount(alice, 'Changing too');
      for (const id of [account.id, other.id]) await put(alice, `/api/prop/accounts/${id}/rules`, { rules: dailyLimit(100_000) });
      await importTrades(alice, account.id, [trade('2026-03-16', '-300', '09:40', '09:50'), trade('2026-03-17', '250', '09:40', '09:50')]);
      const statusOf = async (id: string) => conforms(propAccountDetail, await alice.get(`/api/prop/accounts/${id}`)).status!;
      expect((await statusOf(account.id)).balanceCents).toBe(4_995_000);
      const trades = (await alice.get(`/api/trades?account=${account.id}`)).body.trades as Array<{ id: string; pnl: string }>;
      const loser = trades.find((t) => t.pnl === '-300.00')!;
      const winner = trades.find((t) => t.pnl === '250.00')!;

      expect((await alice.patch(`/api/trades/${loser.id}`, { pnl: '-1200' })).status).toBe(200);
      const edited = await statusOf(account.id);
      expect(edited.balanceCents).toBe(4_905_000);
      expect(edited.brokenBy).toMatchObject({ tradeId: loser.id, rule: 'dailyLoss' });

      expect((await alice.post('/api/trades/assign', { ids: [winner.id], account_id: other.id })).status).toBe(200);
      expect((await statusOf(account.id)).balanceCents).toBe(4_880_000);
      expect((await statusOf(other.id)).balanceCents).toBe(5_025_000);

      // A reset: the rules count from 2026-03-17 on, so Monday's loss no longer breaks anything.
      await put(alice, `/api/prop/accounts/${account.id}/rules`, { rules: dailyLimit(100_000), starts_on: '2026-03-17' });
      const reset = conforms(propAccountDetail, await alice.get(`/api/prop/accounts/${account.id}`));
      expect(reset.trades).toBe(0);
      expect(reset.status).toMatchObject({ balanceCents: 5_000_000, brokenBy: null, outcome: 'active' });

      expect((await alice.request('DELETE', `/api/trades/${winner.id}`)).status).toBe(204);
      expect((await statusOf(other.id)).balanceCents).toBe(5_000_000);
    });

    it('an account of 1,501 trades: its page leaves the per-trade timeline out and keeps each day, the status unchanged', async () => {
      const trader = await newTrader(app, 'long');
      const account = await propAccount(trader, 'Long history');
      await put(trader, `/api/prop/accounts/${account.id}/rules`, { rules: dailyLimit(100_000) });
      const days = Array.from({ length: 1_501 }, (_, i) =>
        new Date(Date.UTC(2020, 0, 6) + Math.floor(i / 3) * 86_400_000).toISOString().slice(0, 10),
      );
      await importTrades(
        trader,
        account.id,
        days.map((day, i) => trade(day, i % 2 === 0 ? '1.00' : '-0.50', '09:40', '09:50')),
      );
      const detail = conforms(propAccountDetail, await trader.get(`/api/prop/accounts/${account.id}`));
      expect(detail).toMatchObject({ trades: 1_501, timeline_omitted: true });
      expect(detail.status!.timeline).toEqual([]);
      expect(detail.status!.days).toHaveLength(501);
      // 751 of +$1.00 and 750 of -$0.50.
      expect(detail.status!.balanceCents).toBe(5_000_000 + 75_100 - 37_500);
      const shorter = conforms(propAccountDetail, await alice.get(`/api/prop/accounts/${(await propAccount(alice, 'Short history')).id}`));
      expect(shorter.timeline_omitted).toBe(false);
    });

    it('GET /api/prop/status lists the accounts with a rule set only, each with its own starting balance', async () => {
      const trader = await newTrader(app, 'list');
      await createAccount(trader, 'Personal, no rules');
      const a = await propAccount(trader, 'Fifty', { starting_balance: 50000 });
      const b = await propAccount(trader, 'Hundred', { starting_balance: 100000, size: 100000 });
      await put(trader, `/api/prop/accounts/${a.id}/rules`, { rules: dailyLimit(100_000) });
      await put(trader, `/api/prop/accounts/${b.id}/rules`, { rules: dailyLimit(200_000), active: false });
      const list = conforms(propStatusList, await trader.get('/api/prop/status'));
      expect(list.accounts.map((s) => [s.account.name, s.balance_cents, s.active, s.state])).toEqual([
        ['Fifty', 5_000_000, true, 'ok'],
        ['Hundred', 10_000_000, false, 'ok'],
      ]);
    });

    it('two accounts of one broker file, each with its rules: A broken by fees on its Monday, B up; the import warns about A only', async () => {
      const trader = await newTrader(app, 'twofile');
      const a = await propAccount(trader, 'Combine A');
      const b = await propAccount(trader, 'Combine B');
      for (const id of [a.id, b.id]) await put(trader, `/api/prop/accounts/${id}/rules`, { rules: dailyLimit(100_000) });
      const res = await importFile(
        trader,
        { account_id: a.id, time_zone: 'America/New_York', account_map: JSON.stringify({ 'PROP-50K-A': a.id, 'PROP-50K-B': b.id }) },
        TWO_ACCOUNTS,
      );
      const outcome = conforms(importOutcome, res);
      expect(outcome.imported).toBe(3);
      expect(outcome.prop_warnings.map((w) => [w.account.id, w.state, w.broken_by?.rule])).toEqual([[a.id, 'broken', 'dailyLoss']]);

      const statusA = conforms(propAccountDetail, await trader.get(`/api/prop/accounts/${a.id}`)).status!;
      const statusB = conforms(propAccountDetail, await trader.get(`/api/prop/accounts/${b.id}`)).status!;
      expect(statusA.days).toEqual([expect.objectContaining({ day: '2026-03-16', netCents: -100_356, trades: 2 })]);
      expect(statusA.brokenBy).toMatchObject({ rule: 'dailyLoss', at: '2026-03-16T14:20:00.000Z' });
      expect(statusB).toMatchObject({ balanceCents: 5_079_144, brokenBy: null, outcome: 'active' });
    });
  });

  describe('ledger', () => {
    it('records fees and payouts per account and gives the prop ROI per firm and overall', async () => {
      const trader = await newTrader(app, 'ledger');
      const topstep = await propAccount(trader, 'TS 1');
      const apex = await propAccount(trader, 'Apex 1', { firm: 'Apex Trader Funding' });
      const add = async (id: string, body: Record<string, unknown>) =>
        conforms(ledgerSchema.shape.entries.element, await trader.post(`/api/prop/accounts/${id}/ledger`, body), 201);
      const fee = await add(topstep.id, { kind: 'evaluation-fee', amount: '49', occurred_on: '2026-03-02' });
      await add(topstep.id, { kind: 'activation-fee', amount: 149, occurred_on: '2026-03-20', note: 'Express Funded' });
      await add(topstep.id, { kind: 'payout', amount: '1200.00', occurred_on: '2026-04-10' });
      await add(apex.id, { kind: 'evaluation-fee', amount: '167', occurred_on: '2026-03-05' });
      expect(fee).toMatchObject({ account_id: topstep.id, account_name: 'TS 1', firm: 'Topstep', amount: '49.00' });

      const ledger = conforms(ledgerSchema, await trader.get('/api/prop/ledger'));
      expect(ledger.firms).toEqual([
        { firm: 'Apex Trader Funding', costsCents: 16_700, payoutsCents: 0, netCents: -16_700, roiPct: -100 },
        { firm: 'Topstep', costsCents: 19_800, payoutsCents: 120_000, netCents: 100_200, roiPct: 506.06 },
      ]);
      expect(ledger.total).toMatchObject({ costsCents: 36_500, payoutsCents: 120_000, netCents: 83_500 });
      expect(ledger.entries.map((e) => e.occurred_on)).toEqual(['2026-04-10', '2026-03-20', '2026-03-05', '2026-03-02']);

      const detail = conforms(propAccountDetail, await trader.get(`/api/prop/accounts/${topstep.id}`));
      expect(detail.ledger).toHaveLength(3);
      expect(detail.ledger_summary).toMatchObject({ costsCents: 19_800, payoutsCents: 120_000 });

      // An edit, a firm renamed on the account (its entries follow), a delete.
      const patched = await trader.patch(`/api/prop/ledger/${fee.id}`, { amount: '59', note: 'Combine after the price change' });
      expect(patched.body).toMatchObject({ amount: '59.00', note: 'Combine after the price change' });
      await trader.patch(`/api/accounts/${topstep.id}`, { firm: 'Topstep LLC' });
      expect((await trader.get('/api/prop/ledger')).body.firms.map((f: { firm: string }) => f.firm)).toEqual(['Apex Trader Funding', 'Topstep LLC']);
      expect((await del(trader, `/api/prop/ledger/${fee.id}`)).status).toBe(204);
      expect((await trader.get('/api/prop/ledger')).body.entries).toHaveLength(3);
    });

    it('deleting the account keeps its costs in the firm ROI, without the account', async () => {
      const trader = await newTrader(app, 'ledger-delete');
      const failed = await propAccount(trader, 'Failed eval', { firm: 'MyFundedFutures' });
      await trader.post(`/api/prop/accounts/${failed.id}/ledger`, { kind: 'evaluation-fee', amount: '77', occurred_on: '2026-03-02' });
      await put(trader, `/api/prop/accounts/${failed.id}/rules`, { rules: dailyLimit(100_000) });
      expect((await del(trader, `/api/accounts/${failed.id}`)).status).toBe(204);
      const ledger = conforms(ledgerSchema, await trader.get('/api/prop/ledger'));
      expect(ledger.entries).toEqual([expect.objectContaining({ account_id: null, account_name: null, firm: 'MyFundedFutures', amount: '77.00' })]);
      expect(ledger.total.costsCents).toBe(7_700);
      expect(conforms(propStatusList, await trader.get('/api/prop/status')).accounts).toEqual([]);
    });

    it('refuses bad entries naming the field', async () => {
      const account = await propAccount(alice, 'Ledger typos');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ kind: 'refund', amount: '10', occurred_on: '2026-03-02' }, 'kind'],
        [{ kind: 'payout', amount: '-10', occurred_on: '2026-03-02' }, 'amount'],
        [{ kind: 'payout', amount: '0', occurred_on: '2026-03-02' }, 'amount'],
        [{ kind: 'payout', amount: '1e3', occurred_on: '2026-03-02' }, 'amount'],
        [{ kind: 'payout', amount: '10', occurred_on: '03/02/2026' }, 'occurred_on'],
        [{ kind: 'payout', amount: '10', occurred_on: '2026-03-02', note: 'n'.repeat(501) }, 'note'],
      ];
      for (const [body, field] of cases) {
        const res = await alice.post(`/api/prop/accounts/${account.id}/ledger`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.startsWith(`${field}: `), res.body.error).toBe(true);
      }
      expect((await alice.get(`/api/prop/accounts/${account.id}`)).body.ledger).toEqual([]);
    });
  });

  describe("another trader's ids", () => {
    it('are not found through every prop endpoint, and change nothing', async () => {
      const account = await propAccount(alice, 'Private eval');
      await put(alice, `/api/prop/accounts/${account.id}/rules`, { rules: dailyLimit(100_000) });
      await importTrades(alice, account.id, [trade('2026-03-16', '-250', '09:40', '09:50')]);
      const entry = (await alice.post(`/api/prop/accounts/${account.id}/ledger`, { kind: 'payout', amount: '500', occurred_on: '2026-03-20' })).body;
      const before = (await alice.get(`/api/prop/accounts/${account.id}`)).body;

      for (const id of [account.id, MISSING]) {
        expect((await bob.get(`/api/prop/accounts/${id}`)).status).toBe(404);
        expect((await put(bob, `/api/prop/accounts/${id}/rules`, { rules: {} })).status).toBe(404);
        expect((await del(bob, `/api/prop/accounts/${id}/rules`)).status).toBe(404);
        expect((await bob.post(`/api/prop/accounts/${id}/ledger`, { kind: 'payout', amount: '1', occurred_on: '2026-03-20' })).status).toBe(404);
      }
      for (const id of [entry.id, MISSING]) {
        expect((await bob.patch(`/api/prop/ledger/${id}`, { amount: '1' })).status).toBe(404);
        expect((await del(bob, `/api/prop/ledger/${id}`)).status).toBe(404);
      }
      expect((await bob.get('/api/prop/accounts/not-a-uuid')).status).toBe(400);
      expect(conforms(propStatusList, await bob.get('/api/prop/status')).accounts).toEqual([]);
      expect(conforms(ledgerSchema, await bob.get('/api/prop/ledger')).entries).toEqual([]);
      expect((await alice.get(`/api/prop/accounts/${account.id}`)).body).toEqual(before);
    });
  });
});
