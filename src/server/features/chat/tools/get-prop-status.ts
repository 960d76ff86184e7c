import { tool } from 'ai';
import { z } from 'zod';
import type { PropAccountSummary } from '../../../../contract/prop';
import { formatShortDay } from '../../../../domain/dates';
import { ACCOUNT_KIND_LABELS, RULE_LABELS } from '../../../../domain/prop';
import { formatMoney } from '../../../../domain/cents';
import { toCents } from '../../../../domain/money';
import { propStatusList } from '../../../core/prop/status';
import { type ToolBasis, type ToolContext } from './common';

const STATE_WORDS = {
  ok: 'on track',
  near: 'near a limit (within 25%)',
  breached: 'a soft breach today: the day or the trade is lost, the account stands',
  broken: 'failed: a hard breach ended the account',
} as const;

/**
 * The accounts a trader's words name: the exact name first, then names holding every word ('my 50K' finds 'Topstep
 * 50K Combine'), then the plan's size ('50K' is a 50,000 account). None named: every prop account.
 */
function pickAccounts(accounts: PropAccountSummary[], wanted: string | undefined): PropAccountSummary[] {
  if (!wanted || !wanted.trim()) return accounts;
  const text = wanted.trim().toLowerCase();
  const exact = accounts.filter((a) => a.account.name.toLowerCase() === text || a.account.id === wanted);
  if (exact.length > 0) return exact;
  const words = text.split(/\s+/).filter((w) => !['my', 'the', 'account', 'acct'].includes(w));
  const named = accounts.filter((a) => words.length > 0 && words.every((w) => `${a.account.name} ${a.account.firm ?? ''}`.toLowerCase().includes(w)));
  if (named.length > 0) return named;
  const size = /^(\d+(?:\.\d+)?)\s*k$/.exec(words.join(''));
  if (size) return accounts.filter((a) => a.account.size !== null && toCents(a.account.size) === Math.round(Number(size[1]) * 100_000));
  return [];
}

const label = (day: string) => `${formatShortDay(day)}, ${day.slice(0, 4)}`;

function basisOf(accounts: PropAccountSummary[]): ToolBasis {
  const trades = accounts.reduce((n, a) => n + a.trades, 0);
  const days = accounts
    .flatMap((a) => [a.first_day, a.last_day])
    .filter((d): d is string => d !== null)
    .sort();
  const from = days[0] ?? null;
  const to = days[days.length - 1] ?? null;
  const names = accounts.map((a) => a.account.name);
  const span = from && to ? (from === to ? `, ${label(from)}` : `, ${label(from)} to ${label(to)}`) : '';
  return {
    trades,
    from,
    to,
    filters: names.map((n) => `account ${n}`),
    text: `computed from ${trades} closed trade${trades === 1 ? '' : 's'} of ${names.join(', ') || 'no prop account'}${span} (realized P&L net of fees, by each account's rules)`,
  };
}

/**
 * Where the trader's prop accounts stand against their firms' rules ("how far is my 50K from its daily loss
 * limit?"), from the same evaluation as the status page and the dashboard's widget. The trader is the session's, never
 * the model's choice.
 */
export const getPropStatusTool = (ctx: ToolContext) =>
  tool({
    description:
      "Where the trader's prop-firm accounts (evaluation and funded accounts with a rule set) stand today: balance, profit, and for each rule (daily loss limit, maximum loss limit, profit target, consistency, trading days, position size, trading hours, payout) its state and the distance left in dollars; and when an account is broken, which rule broke, on which trading day, at what time, by which trade. Realized P&L of closed trades only. Use it for any question about a prop account's limits, drawdown, target or payout.",
    inputSchema: z.object({
      account: z.string().max(200).optional().describe("An account's name or part of it ('50K', 'Topstep'); every prop account when omitted"),
    }),
    execute: async (input) => {
      const { accounts } = await propStatusList(ctx.database, ctx.userId, ctx.now);
      if (accounts.length === 0)
        return { error: 'The trader has no account with prop-firm rules yet (an account page, Rules & Status, sets them up)' };
      const picked = pickAccounts(accounts, input.account);
      if (picked.length === 0)
        return { error: `No prop account matches "${input.account}". Their prop accounts: ${accounts.map((a) => a.account.name).join(', ')}` };
      return {
        basis: basisOf(picked),
        note: "Realized P&L of closed trades, net of fees, in the order it was realized and on the trading day of each trade's exit; open positions and their prices are not known, so an unrealized drawdown is not included. The firm's own terms are authoritative.",
        trading_day: picked[0]!.today,
        accounts: picked.map((a) => {
          // In the account's currency: a USDT account's amounts are never written in dollars.
          const money = (cents: number) => formatMoney(cents, a.account.currency);
          return {
            account: a.account.name,
            kind: ACCOUNT_KIND_LABELS[a.account.kind],
            firm: a.account.firm,
            starting_balance: money(toCents(a.account.starting_balance)),
            balance: money(a.balance_cents),
            profit: money(a.profit_cents),
            status: STATE_WORDS[a.state],
            outcome: a.outcome,
            verdict: a.headline,
            ...(a.soft_breaches > 0 && { soft_breaches: a.soft_breaches }),
            ...(a.target_reached_on && { target_reached_on: a.target_reached_on }),
            ...(a.passed_on && { passed_on: a.passed_on }),
            broken_by: a.broken_by && {
              rule: RULE_LABELS[a.broken_by.rule],
              trading_day: a.broken_by.day,
              at: a.broken_by.at,
              trade_id: a.broken_by.tradeId,
              what: a.broken_by.message,
            },
            rules: a.rules.map((r) => ({
              rule: RULE_LABELS[r.rule],
              state: r.state,
              ...(r.severity && { breaking_it: r.severity === 'hard' ? 'fails the account' : 'costs the day or the trade' }),
              ...(r.distanceCents !== null && { distance_left: money(r.distanceCents) }),
              detail: r.detail,
            })),
          };
        }),
      };
    },
  });
