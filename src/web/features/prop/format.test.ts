import { describe, expect, it } from 'vitest';
import type { RuleStatus } from '../../../domain/prop/types';
import { formatRuleFigure, formatSignedMoney } from './format';

const rule = (partial: Partial<RuleStatus>): RuleStatus => ({
  rule: 'dailyLoss',
  state: 'ok',
  severity: 'hard',
  value: -40_000,
  limit: 50_000,
  distanceCents: 10_000,
  progressPct: 80,
  detail: '',
  ...partial,
});

describe("a prop account's figures in its currency", () => {
  it("writes a USDT account's room and distance in USDT, with no dollar sign", () => {
    expect(formatRuleFigure(rule({}), 'USDT')).toBe('100.00 USDT left');
    expect(formatRuleFigure(rule({ rule: 'profitTarget', severity: null, state: 'pending', distanceCents: 115_000 }), 'USDT')).toBe(
      '1,150.00 USDT to go',
    );
    expect(formatSignedMoney(25_000, 'USDT')).toBe('+250.00 USDT');
    expect(formatSignedMoney(-1_250, 'USDC')).toBe('-12.50 USDC');
  });

  it("keeps a USD account's text as it was", () => {
    expect(formatRuleFigure(rule({}))).toBe('$100.00 left');
    expect(formatRuleFigure(rule({}), 'USD')).toBe('$100.00 left');
    expect(formatRuleFigure(rule({ rule: 'payout', severity: null, state: 'pending', distanceCents: 50_000 }), 'USD')).toBe('$500.00 to go');
    expect(formatSignedMoney(25_000)).toBe('+$250.00');
    expect(formatSignedMoney(0, 'USD')).toBe('$0.00');
  });
});
