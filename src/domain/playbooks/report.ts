import type { Cents } from '../cents';
import { getTradeR } from '../reports/r-multiples';
import { RESULT, type TradeSet } from '../reports/report-trade';
import { calculateExpectancy, calculateWinRateOrNull, toPercent } from '../reports/formulas';
import { RAccumulator } from '../risk/r-summary';

/**
 * A playbook's report: what its trades made, and what they made when its rules were all followed
 * against when one was broken. Money in cents, R as the reports round it (two decimals); a figure with nothing to be
 * computed from is null. Trades without a planned risk have no R: counted apart, never averaged in as 0R.
 */

export interface PlaybookFigures {
  trades: number;
  wins: number;
  losses: number;
  /** Wins / decided trades, one decimal (the spec's win rate); null when nothing was decided. */
  winRate: number | null;
  netCents: Cents;
  /** The reports' expectancy (win rate x average win + loss rate x average loss). */
  expectancyCents: Cents | null;
  /** The average R of the trades with a planned risk. */
  expectancyR: number | null;
  tradesWithRisk: number;
  tradesWithoutRisk: number;
}

export interface PlaybookReport extends PlaybookFigures {
  /** Rules in the playbook now. */
  rules: number;
  /** Ticked rules over every rule of every trade, as a percentage with one decimal; null without rules or trades. */
  adherence: number | null;
  /** Trades that ticked every rule, and trades that left one or more unticked (none when the playbook has no rules). */
  followed: PlaybookFigures;
  broken: PlaybookFigures;
}

class Tally {
  trades = 0;
  wins = 0;
  losses = 0;
  net = 0;
  profit = 0;
  loss = 0;
  /** R summed exactly (r-summary.ts), as the reports and Reflect sum it: never a float sum of quotients. */
  readonly r = new RAccumulator();

  add(result: number, pnl: number, riskCents: number) {
    this.trades++;
    this.net += pnl;
    if (result === RESULT.WIN) {
      this.wins++;
      this.profit += pnl;
    } else if (result === RESULT.LOSS) {
      this.losses++;
      this.loss += pnl;
    }
    this.r.add({ tradeDate: '', pnlCents: pnl, riskCents: Number.isNaN(riskCents) ? null : riskCents, result: 'BE' });
  }

  figures(): PlaybookFigures {
    return {
      trades: this.trades,
      wins: this.wins,
      losses: this.losses,
      winRate: calculateWinRateOrNull(this),
      netCents: this.net,
      expectancyCents: calculateExpectancy({ wins: this.wins, losses: this.losses, grossProfitCents: this.profit, grossLossCents: this.loss }),
      expectancyR: this.r.summary().expectancyR,
      tradesWithRisk: this.r.withRisk,
      tradesWithoutRisk: this.trades - this.r.withRisk,
    };
  }
}

/**
 * The report of one playbook's trades. `set` holds its trades; `risk` is every trade's planned risk in cents
 * (computeRiskColumn); `ticked[k]` is how many of the playbook's `rules` the k-th trade of the set ticked.
 */
export function computePlaybookReport(set: TradeSet, risk: Float64Array, ticked: ArrayLike<number>, rules: number): PlaybookReport {
  const { columns: c, rows } = set;
  const all = new Tally();
  const followed = new Tally();
  const broken = new Tally();
  let ticks = 0;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const r = getTradeR(c, risk, i);
    // The R sums take the plan itself: a trade has an R when it has a planned risk (getTradeR is not NaN).
    const planned = Number.isNaN(r) ? Number.NaN : risk[i]!;
    all.add(c.result[i]!, c.pnl[i]!, planned);
    if (rules === 0) continue;
    const t = Math.min(ticked[k]!, rules);
    ticks += t;
    (t === rules ? followed : broken).add(c.result[i]!, c.pnl[i]!, planned);
  }
  return {
    ...all.figures(),
    rules,
    adherence: rules === 0 ? null : toPercent(ticks, rows.length * rules),
    followed: followed.figures(),
    broken: broken.figures(),
  };
}

/** Reflect's "followed the rules" of a trade with a playbook: every rule ticked. Null when the playbook has no rules. */
export function deriveFollowedRules(ticked: number, rules: number): boolean | null {
  return rules === 0 ? null : ticked >= rules;
}
