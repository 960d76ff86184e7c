import { EMPTY_RULE_SET, type AccountKind, type PropRuleSet, type TradingHoursRule } from './types';

/**
 * Rule sets of common prop-firm plans, as data (issue 28). Firms change their terms often and word them in their
 * own ways: each template carries the day its figures were last checked, where, and what it leaves out. A template
 * fills in an account's rules, which the trader then edits; the firm's own terms stay authoritative, and the screens
 * say so.
 *
 * These figures were read on 2026-11-26 from public descriptions of each plan dated 2025-2026 (reviews and rule
 * summaries that cite the firms' help centres; the firms' own pages could not be fetched from where this was written).
 */
export interface PropTemplate {
  id: string;
  firm: string;
  plan: string;
  kind: AccountKind;
  sizeCents: number;
  rules: PropRuleSet;
  /** yyyy-MM-dd */
  checkedOn: string;
  /** The firm's page for the plan's rules. */
  sourceUrl: string;
  /** What the template does not model, in the firm's words where possible. */
  notes: string;
}

const CHECKED_ON = '2026-11-26';

/** CME's daily halt in New York time: flat before it, trading again when Globex reopens at 18:00. */
const flatBy = (time: string): TradingHoursRule => ({
  flatBy: time,
  reopenAt: '18:00',
  timeZone: 'America/New_York',
  noTradingWeekdays: [],
  noTradingDates: [],
});

const usd = (dollars: number) => dollars * 100;

function topstepCombine(size: number, target: number, maxLoss: number, contracts: number): PropTemplate {
  return {
    id: `topstep-combine-${size / 1000}k`,
    firm: 'Topstep',
    plan: `Trading Combine ${size / 1000}K`,
    kind: 'evaluation',
    sizeCents: usd(size),
    rules: {
      ...EMPTY_RULE_SET,
      profitTargetCents: usd(target),
      maxLoss: { amountCents: usd(maxLoss), trailing: 'end-of-day', lockAboveStartCents: 0 },
      consistency: { maxBestDayPct: 50, of: 'profit' },
      maxPosition: { contracts },
      // Positions close by 3:10 PM Central (4:10 PM New York).
      tradingHours: flatBy('16:10'),
    },
    checkedOn: CHECKED_ON,
    sourceUrl: 'https://help.topstep.com/',
    notes:
      'The daily loss limit is an optional personal setting at Topstep: add it if you set one. The scaling plan and product list are not modelled.',
  };
}

function takeProfitTest(size: number, target: number, maxLoss: number, contracts: number): PropTemplate {
  return {
    id: `take-profit-trader-test-${size / 1000}k`,
    firm: 'Take Profit Trader',
    plan: `Test ${size / 1000}K`,
    kind: 'evaluation',
    sizeCents: usd(size),
    rules: {
      ...EMPTY_RULE_SET,
      profitTargetCents: usd(target),
      maxLoss: { amountCents: usd(maxLoss), trailing: 'end-of-day', lockAboveStartCents: null },
      consistency: { maxBestDayPct: 50, of: 'profit' },
      minTradingDays: 5,
      maxPosition: { contracts },
      tradingHours: flatBy('17:00'),
    },
    checkedOn: CHECKED_ON,
    sourceUrl: 'https://takeprofittrader.com/',
    notes: 'No daily loss limit in the Test since January 2025. PRO accounts switch to an intraday trailing drawdown.',
  };
}

export const PROP_TEMPLATES: readonly PropTemplate[] = [
  topstepCombine(50_000, 3_000, 2_000, 5),
  topstepCombine(100_000, 6_000, 3_000, 10),
  topstepCombine(150_000, 9_000, 4_500, 15),
  {
    id: 'topstep-express-funded-50k',
    firm: 'Topstep',
    plan: 'Express Funded Account 50K',
    kind: 'funded',
    sizeCents: usd(50_000),
    rules: {
      ...EMPTY_RULE_SET,
      maxLoss: { amountCents: usd(2_000), trailing: 'end-of-day', lockAboveStartCents: 0 },
      maxPosition: { contracts: 5 },
      minProfitDays: { days: 5, minCents: usd(150) },
      tradingHours: flatBy('16:10'),
      payout: { minBalanceAboveStartCents: null },
    },
    checkedOn: CHECKED_ON,
    sourceUrl: 'https://help.topstep.com/',
    notes: 'A payout needs five winning days of $150 or more; the consistency path (40%) is an alternative not modelled here.',
  },
  {
    id: 'apex-intraday-trail-50k',
    firm: 'Apex Trader Funding',
    plan: 'Intraday Trail Evaluation 50K',
    kind: 'evaluation',
    sizeCents: usd(50_000),
    rules: {
      ...EMPTY_RULE_SET,
      profitTargetCents: usd(3_000),
      // Apex trails unrealized equity; only realized balances are known here, so the status says so.
      maxLoss: { amountCents: usd(2_500), trailing: 'intraday', lockAboveStartCents: usd(100) },
    },
    checkedOn: CHECKED_ON,
    sourceUrl: 'https://apextraderfunding.com/',
    notes:
      'Apex trails the highest unrealized equity; Edgebook knows only closed trades, so a threshold moved by an open profit is not seen. 30 calendar days to pass; contract limits per plan not modelled.',
  },
  takeProfitTest(50_000, 3_000, 2_000, 6),
  takeProfitTest(100_000, 6_000, 3_000, 12),
  takeProfitTest(150_000, 9_000, 4_500, 15),
  {
    id: 'myfundedfutures-evaluation-50k',
    firm: 'MyFundedFutures',
    plan: 'Evaluation 50K',
    kind: 'evaluation',
    sizeCents: usd(50_000),
    rules: {
      ...EMPTY_RULE_SET,
      profitTargetCents: usd(3_000),
      maxLoss: { amountCents: usd(2_000), trailing: 'end-of-day', lockAboveStartCents: null },
      consistency: { maxBestDayPct: 50, of: 'profit' },
    },
    checkedOn: CHECKED_ON,
    sourceUrl: 'https://help.myfundedfutures.com/',
    notes: 'Exceeding the consistency share does not fail the evaluation: trade more days until it is met. Plans differ (Core, Rapid, Pro).',
  },
];

export function findPropTemplate(id: string): PropTemplate | undefined {
  return PROP_TEMPLATES.find((t) => t.id === id);
}

/** What a trading platform says of one of its accounts: its firm's name ('TopstepX'), the account's name and balance. */
export interface PlatformAccount {
  platform: string;
  name: string;
  balanceCents: number | null;
}

/** A share of a plan's size its balance may have moved by and still say that size (the largest drawdown is 4%). */
const BALANCE_SLACK = 0.1;

/**
 * The template an account of a prop firm's platform probably follows, offered when the trader maps it to a trading
 * account (issue 30). The firm is the one the platform is named after (TopstepX: Topstep); the plan's size is what
 * the account's name says (TopstepX names a $50K Trading Combine '50KTC-V2-…'), else its balance, within a tenth of a
 * plan's size; a name that says express or funded picks the funded plan. Null when none of it says a plan, and for a
 * practice account ('PRAC-…'): the trader picks, or declines.
 */
export function suggestPropTemplate(account: PlatformAccount): PropTemplate | null {
  const platform = account.platform.trim().toLowerCase();
  const firm = PROP_TEMPLATES.filter((t) => platform.startsWith(t.firm.toLowerCase()));
  if (firm.length === 0 || /prac/i.test(account.name)) return null;
  const kind: AccountKind = /express|xfa|funded/i.test(account.name) ? 'funded' : 'evaluation';
  const plans = firm.filter((t) => t.kind === kind);
  const named = /(?:^|[^0-9])(\d{2,3})K/i.exec(account.name);
  if (named) return plans.find((t) => t.sizeCents === Number(named[1]) * 100_000) ?? null;
  if (account.balanceCents === null) return null;
  const balance = account.balanceCents;
  return plans.find((t) => Math.abs(balance - t.sizeCents) <= t.sizeCents * BALANCE_SLACK) ?? null;
}
