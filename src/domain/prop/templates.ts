import data from './templates.json' with { type: 'json' };
import type { AccountKind, PropRuleSet } from './types';

/**
 * Rule sets of common prop-firm plans, as dated data (templates.json): firms change their terms often and word them
 * in their own ways. Each rule of a template names where its figures were read, whose page that was (the firm's own or
 * a third-party review) and when, so the screens can say which figures were seen on the firm's page and which are to be
 * confirmed with the firm. A template fills in an account's rules, which the trader then edits; the firm's own terms
 * stay authoritative. The server checks the file against its schema (src/contract/prop.ts) when it starts.
 */

/** The keys of a rule set, each of which a template sources separately. */
export type TemplateRuleKey = keyof PropRuleSet;

export interface TemplateSource {
  id: string;
  /** 'firm': the firm's own page; 'review': a third party's account of the firm's terms. */
  publisher: 'firm' | 'review';
  url: string;
  /** yyyy-MM-dd: the day it was read. */
  readOn: string;
  /** What it says, in our words. */
  says: string;
}

export interface TemplateFigure {
  rule: TemplateRuleKey;
  sources: TemplateSource[];
  /** True when every source of it is the firm's own page; otherwise it is to be confirmed with the firm. */
  fromFirm: boolean;
}

export interface PropTemplate {
  id: string;
  firm: string;
  plan: string;
  kind: AccountKind;
  sizeCents: number;
  rules: PropRuleSet;
  /** yyyy-MM-dd: the earliest day any of its figures was read. */
  checkedOn: string;
  /** The firm's page for the plan's rules: where to confirm them. */
  sourceUrl: string;
  /** Each rule it sets and where its figures come from, in the rule set's order. */
  figures: TemplateFigure[];
  /** True when every figure was read on the firm's own pages. */
  confirmedByFirm: boolean;
  /** What the template does not model, and what to confirm. */
  notes: string;
}

/** The file's shape, as the contract's schema checks it. */
export interface PropTemplateFile {
  about: string;
  sources: Record<string, Omit<TemplateSource, 'id'>>;
  templates: Array<{
    id: string;
    firm: string;
    plan: string;
    kind: AccountKind;
    sizeCents: number;
    firmUrl: string;
    rules: PropRuleSet;
    sources: Partial<Record<TemplateRuleKey, string[]>>;
    notes: string;
  }>;
}

/** The raw file, for the server to check. */
export const PROP_TEMPLATE_FILE = data as PropTemplateFile;

const RULE_ORDER: readonly TemplateRuleKey[] = [
  'profitTargetCents',
  'dailyLoss',
  'maxLoss',
  'consistency',
  'minTradingDays',
  'minProfitDays',
  'maxPosition',
  'tradingHours',
  'payout',
];

function buildTemplate(file: PropTemplateFile, raw: PropTemplateFile['templates'][number]): PropTemplate {
  const figures: TemplateFigure[] = RULE_ORDER.filter((rule) => raw.rules[rule] !== null).map((rule) => {
    const sources = (raw.sources[rule] ?? []).flatMap((id) => {
      const source = file.sources[id];
      return source ? [{ id, ...source }] : [];
    });
    return { rule, sources, fromFirm: sources.length > 0 && sources.every((s) => s.publisher === 'firm') };
  });
  const days = figures.flatMap((f) => f.sources.map((s) => s.readOn)).sort();
  return {
    id: raw.id,
    firm: raw.firm,
    plan: raw.plan,
    kind: raw.kind,
    sizeCents: raw.sizeCents,
    rules: raw.rules,
    checkedOn: days[0] ?? '',
    sourceUrl: raw.firmUrl,
    figures,
    confirmedByFirm: figures.every((f) => f.fromFirm),
    notes: raw.notes,
  };
}

export const PROP_TEMPLATES: readonly PropTemplate[] = PROP_TEMPLATE_FILE.templates.map((t) => buildTemplate(PROP_TEMPLATE_FILE, t));

/** The firms the templates know, offered when an account's firm is typed (any other name is fine). */
export const PROP_FIRMS: readonly string[] = [...new Set(PROP_TEMPLATES.map((t) => t.firm))].sort((a, b) => a.localeCompare(b));

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
 * account. The firm is the one the platform is named after (TopstepX: Topstep); the plan's size is what
 * the account's name says (TopstepX names a $50K Trading Combine '50KTC-V2-…'), else its balance, within a tenth of a
 * plan's size; a name that says express or funded picks the funded plan. Null when none of it says a plan, and for a
 * practice account ('PRAC-…'): the trader picks, or declines.
 */
export function suggestPropTemplate(account: PlatformAccount): PropTemplate | null {
  const platform = account.platform.trim().toLowerCase();
  const firm = PROP_TEMPLATES.filter((t) => platform.startsWith(t.firm.toLowerCase()));
  if (firm.length === 0 || /prac/i.test(account.name)) return null;
  const express = /express|xfa/i.test(account.name);
  const kind: AccountKind = express || /funded|live/i.test(account.name) ? 'funded' : 'evaluation';
  // An express account follows the firm's express plan, never its live one of the same size.
  const plans = firm.filter((t) => t.kind === kind && (!express || /express/i.test(t.plan)));
  const named = /(?:^|[^0-9])(\d{2,3})K/i.exec(account.name);
  if (named) return plans.find((t) => t.sizeCents === Number(named[1]) * 100_000) ?? null;
  if (account.balanceCents === null) return null;
  const balance = account.balanceCents;
  return plans.find((t) => Math.abs(balance - t.sizeCents) <= t.sizeCents * BALANCE_SLACK) ?? null;
}
