import { describe, expect, it } from 'vitest';
import {
  checkRiskPrices,
  computeRMultiple,
  computeStopRiskCents,
  computeTargetR,
  findRiskDefault,
  resolvePlannedRisk,
  type RiskDefault,
  type RiskTrade,
} from './planned-risk';
import { formatR } from './format-r';

const trade = (patch: Partial<RiskTrade>): RiskTrade => ({
  accountId: null,
  symbol: 'NQ',
  contract: null,
  side: 'Long',
  entryPrice: null,
  quantity: null,
  stopPrice: null,
  riskCents: null,
  targetPrice: null,
  ...patch,
});

const ACCOUNT = 'a-1';
const defaults: RiskDefault[] = [
  { id: 'all-any', accountId: null, root: null, stopPoints: null, amountCents: 20_000 },
  { id: 'all-nq', accountId: null, root: 'NQ', stopPoints: '20', amountCents: null },
  { id: 'acct-any', accountId: ACCOUNT, root: null, stopPoints: null, amountCents: 15_000 },
  { id: 'acct-mes', accountId: ACCOUNT, root: 'MES', stopPoints: '8.5', amountCents: null },
];

describe('planned risk from a stop price', () => {
  it('a 2-lot NQ long from 18250.25 with its stop at 18240.25 risks 10 x 2 x $20 = $400', () => {
    expect(computeStopRiskCents(trade({ entryPrice: '18250.25', stopPrice: '18240.25', quantity: '2' }))).toBe(40_000);
  });

  it('a 3-lot MES short from 5012.50 with its stop at 5016.75 risks 4.25 x 3 x $5 = $63.75', () => {
    const t = trade({ symbol: 'MES', side: 'Short', entryPrice: '5012.50', stopPrice: '5016.75', quantity: '3' });
    expect(resolvePlannedRisk(t, defaults)).toEqual({ cents: 6375, source: 'stop' });
  });

  it('prices by the contract when the trade has one: MNQZ5 is $2 a point whatever the symbol says', () => {
    const t = trade({ symbol: 'MNQ', contract: 'MNQZ5', entryPrice: '21000', stopPrice: '20987.5', quantity: '4' });
    // 12.5 x 4 x 2 = $100
    expect(resolvePlannedRisk(t)).toEqual({ cents: 10_000, source: 'stop' });
  });

  it('a 0.015 BTC long from 64000.10 with its stop at 63500 risks 500.10 x 0.015 = $7.5015, so $7.50', () => {
    expect(computeStopRiskCents(trade({ symbol: 'BTC', entryPrice: '64000.10', stopPrice: '63500', quantity: '0.015' }))).toBe(750);
  });

  it('a stop without an entry or quantity prices nothing', () => {
    expect(computeStopRiskCents(trade({ stopPrice: '100', quantity: '1' }))).toBeNull();
    expect(resolvePlannedRisk(trade({ stopPrice: '100', entryPrice: '110' }), defaults)).toBeNull();
  });
});

describe('planned risk from the trade or its defaults', () => {
  it("the trade's own dollar risk wins over every default", () => {
    expect(resolvePlannedRisk(trade({ accountId: ACCOUNT, riskCents: 12_345 }), defaults)).toEqual({ cents: 12_345, source: 'amount' });
  });

  it('the most specific default applies: account and root, then account, then root, then any', () => {
    expect(findRiskDefault(defaults, ACCOUNT, 'MESZ5')?.id).toBe('acct-mes');
    expect(findRiskDefault(defaults, ACCOUNT, 'NQ')?.id).toBe('acct-any');
    expect(findRiskDefault(defaults, 'other', 'NQH6')?.id).toBe('all-nq');
    expect(findRiskDefault(defaults, null, 'CL')?.id).toBe('all-any');
    expect(findRiskDefault([], null, 'CL')).toBeUndefined();
  });

  it('a default of 20 NQ points on a 3-lot is 20 x 3 x $20 = $1,200', () => {
    expect(resolvePlannedRisk(trade({ symbol: 'NQ', quantity: '3' }), defaults)).toEqual({
      cents: 120_000,
      source: 'default-stop',
      defaultId: 'all-nq',
    });
  });

  it('a default of 8.5 MES points on a 2-lot in its account is 8.5 x 2 x $5 = $85', () => {
    const t = trade({ accountId: ACCOUNT, symbol: 'MES', quantity: '2' });
    expect(resolvePlannedRisk(t, defaults)).toEqual({ cents: 8500, source: 'default-stop', defaultId: 'acct-mes' });
  });

  it('a default in points needs a quantity; a default in dollars does not', () => {
    expect(resolvePlannedRisk(trade({ symbol: 'NQ' }), defaults)).toBeNull();
    expect(resolvePlannedRisk(trade({ symbol: 'CL' }), defaults)).toEqual({ cents: 20_000, source: 'default-amount', defaultId: 'all-any' });
  });

  it('without a plan or a default there is no planned risk', () => {
    expect(resolvePlannedRisk(trade({ symbol: 'NQ', quantity: '1' }), [])).toBeNull();
  });
});

describe('R-multiples', () => {
  it('net P&L over planned risk: +$850 on $400 risked is +2.125R, -$400 is -1R', () => {
    expect(computeRMultiple(85_000, 40_000)).toBe(2.125);
    expect(computeRMultiple(-40_000, 40_000)).toBe(-1);
  });

  it('no risk, no R (never a division by zero)', () => {
    expect(computeRMultiple(5000, null)).toBeNull();
    expect(computeRMultiple(5000, 0)).toBeNull();
  });

  it('a scratch is 0R, not -0R', () => {
    expect(Object.is(computeRMultiple(-0, 100), 0)).toBe(true);
    expect(formatR(0)).toBe('0.00R');
  });

  it('R reads with two decimals and its sign, rounded half away from zero', () => {
    expect(formatR(2.125)).toBe('+2.13R');
    expect(formatR(-0.125)).toBe('-0.13R');
    expect(formatR(-1)).toBe('-1.00R');
    expect(formatR(1.005)).toBe('+1.01R');
  });

  it('a target 30 points above a long entry with a 10-point stop is a 3R target', () => {
    expect(computeTargetR({ entryPrice: '100', stopPrice: '90', targetPrice: '130' })).toBe(3);
    expect(computeTargetR({ entryPrice: '100', stopPrice: null, targetPrice: '130' })).toBeNull();
  });
});

describe('stops and targets on the right side of the entry', () => {
  it('refuses a long stop above the entry, a short stop below it, and a stop at the entry', () => {
    expect(checkRiskPrices({ side: 'Long', entryPrice: '100', quantity: '1', stopPrice: '101' })?.field).toBe('stop_price');
    expect(checkRiskPrices({ side: 'Short', entryPrice: '100', quantity: '1', stopPrice: '99' })?.message).toMatch(
      /short trade's stop must be above/,
    );
    expect(checkRiskPrices({ side: 'Long', entryPrice: '100', quantity: '1', stopPrice: '100' })?.message).toBe('must differ from the entry price');
  });

  it('refuses a stop that cannot be priced (no entry or quantity) and a target on the losing side', () => {
    expect(checkRiskPrices({ side: 'Long', entryPrice: null, quantity: '1', stopPrice: '99' })?.field).toBe('stop_price');
    expect(checkRiskPrices({ side: 'Long', entryPrice: '100', quantity: '1', stopPrice: '99', targetPrice: '98' })?.field).toBe('target_price');
    expect(checkRiskPrices({ side: 'Short', entryPrice: '100', quantity: '1', stopPrice: '101', targetPrice: '90' })).toBeNull();
  });
});
