import { describe, expect, it } from 'vitest';
import { summarizeLedger } from './ledger';
import { PROP_TEMPLATES } from './templates';

describe('prop ledger', () => {
  it('two Topstep evaluations ($49 each), a $149 activation and a $1,200 payout; one Apex evaluation ($167) and nothing back', () => {
    const summary = summarizeLedger([
      { accountId: 'a', firm: 'Topstep', kind: 'evaluation-fee', amountCents: 4_900 },
      { accountId: 'b', firm: 'Topstep', kind: 'evaluation-fee', amountCents: 4_900 },
      { accountId: 'b', firm: 'Topstep', kind: 'activation-fee', amountCents: 14_900 },
      { accountId: 'b', firm: 'Topstep', kind: 'payout', amountCents: 120_000 },
      { accountId: 'c', firm: 'Apex Trader Funding', kind: 'evaluation-fee', amountCents: 16_700 },
    ]);
    expect(summary.firms).toEqual([
      { firm: 'Apex Trader Funding', costsCents: 16_700, payoutsCents: 0, netCents: -16_700, roiPct: -100 },
      { firm: 'Topstep', costsCents: 24_700, payoutsCents: 120_000, netCents: 95_300, roiPct: 385.83 },
    ]);
    expect(summary.total).toEqual({ firm: 'All firms', costsCents: 41_400, payoutsCents: 120_000, netCents: 78_600, roiPct: 189.86 });
  });

  it('nothing spent: no ROI rather than a division by zero', () => {
    expect(summarizeLedger([]).total.roiPct).toBeNull();
  });
});

describe('prop templates', () => {
  it('each has a unique id, a checked date, a source and rules in positive amounts', () => {
    expect(new Set(PROP_TEMPLATES.map((t) => t.id)).size).toBe(PROP_TEMPLATES.length);
    for (const t of PROP_TEMPLATES) {
      expect(t.checkedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(t.sourceUrl).toMatch(/^https:\/\//);
      expect(t.sizeCents).toBeGreaterThan(0);
      if (t.rules.maxLoss) expect(t.rules.maxLoss.amountCents).toBeGreaterThan(0);
      if (t.rules.profitTargetCents !== null) expect(t.rules.profitTargetCents).toBeGreaterThan(0);
    }
  });
});
