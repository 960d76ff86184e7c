/** What a trade's account reads as where several accounts are listed: Unassigned, or Unknown Account for a vanished one. */
export function accountLabel(trade: { account_id: string | null; account_name?: string | null }): string {
  if (!trade.account_id) return 'Unassigned';
  return trade.account_name ?? 'Unknown Account';
}
