import type { Cents } from '../cents';

/** What a prop account cost and paid. Amounts are positive; the kind says which way money went. */
export type LedgerKind = 'evaluation-fee' | 'reset-fee' | 'activation-fee' | 'data-fee' | 'other-fee' | 'payout';
export const LEDGER_KINDS: readonly LedgerKind[] = ['evaluation-fee', 'reset-fee', 'activation-fee', 'data-fee', 'other-fee', 'payout'];

export interface LedgerEntry {
  accountId: string;
  /** The firm the account belongs to ('' when none was named). */
  firm: string;
  kind: LedgerKind;
  amountCents: Cents;
}

export interface LedgerSummary {
  firm: string;
  costsCents: Cents;
  payoutsCents: Cents;
  /** Payouts minus costs. */
  netCents: Cents;
  /** Net as a percentage of costs; null when nothing was spent. */
  roiPct: number | null;
}

function summarize(firm: string, entries: readonly LedgerEntry[]): LedgerSummary {
  let costs = 0;
  let payouts = 0;
  for (const entry of entries) {
    if (entry.kind === 'payout') payouts += entry.amountCents;
    else costs += entry.amountCents;
  }
  const net = payouts - costs;
  return { firm, costsCents: costs, payoutsCents: payouts, netCents: net, roiPct: costs === 0 ? null : Math.round((net / costs) * 10000) / 100 };
}

/** The prop ROI per firm (sorted by name) and over all of them. */
export function summarizeLedger(entries: readonly LedgerEntry[]): { firms: LedgerSummary[]; total: LedgerSummary } {
  const byFirm = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    const list = byFirm.get(entry.firm);
    if (list) list.push(entry);
    else byFirm.set(entry.firm, [entry]);
  }
  const firms = [...byFirm.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([firm, list]) => summarize(firm, list));
  return { firms, total: summarize('All firms', entries) };
}
