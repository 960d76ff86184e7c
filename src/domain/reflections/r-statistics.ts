import { summarizeR, type RSummary, type RTrade } from '../risk/r-summary';
import type { Reflection } from './reflection';
import type { RComparison } from './comparison';

/**
 * Reflect's analysis tables in R: the period's totals and each session, setup and weekday, keyed as
 * the dollar tables are (computeReflectionStatistics), from the domain's decimal R sums. Trades without a planned risk
 * are counted apart in each row.
 */
export interface ReflectionRStatistics {
  totals: RSummary;
  byTimeOfDay: Array<{ session: string } & RSummary>;
  bySetupType: Array<{ setup: string } & RSummary>;
  byMarketCondition: Array<{ day: string } & RSummary>;
  /** Rule adherence in R: the trades rated as following the rules, and those rated as not (unrated ones in neither). */
  adherence: { whenFollowed: RSummary; whenNotFollowed: RSummary };
  /** Against the previous four weeks or months in R (comparePeriodsInR); null for a day, or for a chosen set of trades. */
  comparison: RComparison | null;
}

/** `riskCents` gives a reflection's planned risk in cents (its trade's own, else the trader's default), or null. */
/** A reflection as the R sums read it. */
export const toRTrade = (r: Reflection, riskCents: number | null): RTrade => ({
  tradeDate: r.date,
  pnlCents: r.pnlCents,
  riskCents,
  result: r.result === 'Win' ? 'Win' : r.result === 'Loss' ? 'Loss' : 'BE',
});

export function computeReflectionRStatistics(
  reflections: readonly Reflection[],
  riskCents: (reflection: Reflection) => number | null,
  comparison: RComparison | null = null,
): ReflectionRStatistics {
  const asTrade = (r: Reflection) => toRTrade(r, riskCents(r));
  const trades = reflections.map((r) => [r, asTrade(r)] as const);
  const group = <K extends string>(name: K, key: (r: Reflection) => string) => {
    const groups = new Map<string, RTrade[]>();
    for (const [r, t] of trades) {
      const k = key(r);
      const list = groups.get(k);
      if (list) list.push(t);
      else groups.set(k, [t]);
    }
    return [...groups].map(([k, list]) => ({ [name]: k, ...summarizeR(list) }) as { [P in K]: string } & RSummary);
  };
  return {
    totals: summarizeR(trades.map(([, t]) => t)),
    byTimeOfDay: group('session', (r) => r.session || 'Unknown'),
    bySetupType: group('setup', (r) => r.type || 'Unspecified'),
    byMarketCondition: group('day', (r) => r.day),
    adherence: {
      whenFollowed: summarizeR(trades.filter(([r]) => r.followedRules === true).map(([, t]) => t)),
      whenNotFollowed: summarizeR(trades.filter(([r]) => r.followedRules === false).map(([, t]) => t)),
    },
    comparison,
  };
}
