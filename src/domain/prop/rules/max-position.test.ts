import { describe, expect, it } from 'vitest';
import { evaluatePropAccount } from '../evaluate';
import { analyzePositions } from '../position';
import { EMPTY_RULE_SET, type MaxPositionRule, type PropFill, type PropTrade } from '../types';

/**
 * The position limit reads the largest concurrent net position from the fills, per contract, summed over a family
 * with micros at their ratio: never the sum of the trades' quantities.
 */
const START = 5_000_000;
const t = (hhmm: string) => `2026-03-16T${hhmm}:00Z`;
const fill = (hhmm: string, side: 'Buy' | 'Sell', quantity: number): PropFill => ({ at: t(hhmm), side, quantity });
const trade = (id: string, symbol: string, quantity: number, fills: PropFill[], net = 100, side: 'Long' | 'Short' = 'Long'): PropTrade => ({
  id,
  day: '2026-03-16',
  entryAt: fills[0]?.at ?? null,
  exitAt: fills[fills.length - 1]?.at ?? null,
  netCents: net * 100,
  symbol,
  quantity,
  side,
  fills,
});
const run = (rule: MaxPositionRule, trades: PropTrade[], today = '2026-03-16') =>
  evaluatePropAccount({
    kind: 'evaluation',
    startingBalanceCents: START,
    rules: { ...EMPTY_RULE_SET, profitTargetCents: 10_000, maxPosition: rule },
    trades,
    today,
  });
const dayOf = () => '2026-03-16';

describe('position size, 5 contracts', () => {
  // ES: buy 3, sell 1, buy 2, sell 4 (a quantity of 5 bought); MES bought 2 at 09:58, down to 1 at 10:03, flat at 10:08.
  const es = () => trade('es', 'ESM6', 5, [fill('14:00', 'Buy', 3), fill('14:05', 'Sell', 1), fill('14:10', 'Buy', 2), fill('14:20', 'Sell', 4)]);
  const mes = () => trade('mes', 'MESM6', 2, [fill('13:58', 'Buy', 2), fill('14:03', 'Sell', 1), fill('14:08', 'Sell', 1)]);

  it('scaling in and out with an overlapping micro: at most 4 ES-equivalents, never the 5.2 of the quantities', () => {
    const { peak, excesses } = analyzePositions([es(), mes()], 5, dayOf);
    expect(peak).toBe(4);
    expect(excesses).toEqual([]);
    const status = run({ contracts: 5 }, [es(), mes()]);
    expect(status.rules.find((r) => r.rule === 'maxPosition')).toMatchObject({
      state: 'ok',
      value: 4,
      detail: 'Largest position today 4 of 5 contracts (micros at their ratio)',
    });
    expect(status.days[0]!.peakContracts).toBe(4);
    // The verdict is the same on every screen: passed, nothing broken, nothing soft.
    expect(status).toMatchObject({ outcome: 'passed', breaches: [], headline: 'Passed on Mar 16, 2026: target and rules met' });
  });

  it('at 3.2, scaling in by 2 ES and 20 MES together at 14:10 makes 5.2: over at once, by both trades', () => {
    const micro = trade('mes20', 'MESM6', 20, [fill('14:10', 'Buy', 20), fill('14:12', 'Sell', 20)]);
    const { excesses, peak } = analyzePositions([es(), mes(), micro], 5, dayOf);
    expect(peak).toBe(6);
    expect(excesses.map((e) => [e.tradeId, e.contracts, e.at])).toEqual([
      ['es', 6, t('14:10')],
      ['mes20', 6, t('14:10')],
    ]);
  });

  it('contracts of two families are separate limits; a short and a long of one contract net to nothing', () => {
    const nq = trade('nq', 'NQM6', 4, [fill('14:00', 'Buy', 4), fill('14:30', 'Sell', 4)]);
    const es4 = trade('es4', 'ESM6', 4, [fill('14:00', 'Buy', 4), fill('14:30', 'Sell', 4)]);
    expect(analyzePositions([nq, es4], 5, dayOf).excesses).toEqual([]);
    // Two ES trades without fills, one long 4 and one short 3 over the same minutes: a net position of 1.
    const long = { ...trade('long', 'ESM6', 4, []), entryAt: t('15:00'), exitAt: t('15:30'), fills: null };
    const short = { ...trade('short', 'ESM6', 3, [], 10, 'Short'), entryAt: t('15:05'), exitAt: t('15:20'), fills: null };
    expect(analyzePositions([long, short], 5, dayOf).peak).toBe(4);
  });

  it('30 MNQ and 3 NQ held together are 6 NQ: soft, the trade is lost and the account passes with one soft breach', () => {
    const nq = trade('nq3', 'NQM6', 3, [fill('14:00', 'Buy', 3), fill('14:30', 'Sell', 3)]);
    const mnq = trade('mnq30', 'MNQM6', 30, [fill('14:10', 'Buy', 30), fill('14:20', 'Sell', 30)]);
    const status = run({ contracts: 5 }, [nq, mnq]);
    expect(status.breaches).toEqual([expect.objectContaining({ rule: 'maxPosition', tradeId: 'mnq30', value: 6, fatal: false, at: t('14:10') })]);
    expect(status.rules.find((r) => r.rule === 'maxPosition')).toMatchObject({ state: 'breached', severity: 'soft', value: 6 });
    expect(status).toMatchObject({ outcome: 'passed', state: 'breached', brokenBy: null });
    expect(status.headline).toBe('Passed on Mar 16, 2026: target and rules met, 1 soft breach');
  });

  it('hard: the same 6 contracts fail the account at 14:10, and the target is then missed', () => {
    const nq = trade('nq3', 'NQM6', 3, [fill('14:00', 'Buy', 3), fill('14:30', 'Sell', 3)], 50);
    const mnq = trade('mnq30', 'MNQM6', 30, [fill('14:10', 'Buy', 30), fill('14:20', 'Sell', 30)], 25);
    const status = run({ contracts: 5, onBreach: 'fail' }, [nq, mnq]);
    expect(status.brokenBy).toMatchObject({ rule: 'maxPosition', tradeId: 'mnq30', at: t('14:10'), fatal: true, value: 6 });
    expect(status).toMatchObject({ outcome: 'broken', state: 'broken', headline: 'Position size broken on Mar 16, 2026' });
    expect(status.rules.find((r) => r.rule === 'profitTarget')!.state).toBe('missed');
  });
});
