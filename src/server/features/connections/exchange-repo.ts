import { sql } from 'drizzle-orm';
import type { BatchSizes, Tx } from '../../db/client';
import { queryRows } from '../../db/client';
import type { FlatPoints } from '../../../domain/connections/round-trips';
import type { PerpetualFill, PositionSide } from '../../../domain/connections/perpetual-trips';
import type { FundedTradeCandidate, FundingEntry } from '../../../domain/connections/funding';
import type { ExchangeFill } from '../../connectors/exchanges';

/**
 * Data access of a crypto exchange's synced account: its fills (in broker_fills, with the asset of each fee, the
 * position side and the exchange's order), its funding payments (funding_payments) and the trades they count in. Every
 * query names its owner; row-level security backs it up.
 */

/** A funding payment as stored, with the journal's contract. */
export interface StoredFunding {
  externalId: string;
  contract: string;
  time: string;
  amount: string;
  asset: string;
  positionSide: 'LONG' | 'SHORT' | null;
}

export const exchangeRepo = (tx: Tx, userId: string) => ({
  /** Stores fills (new ids added; one read again keeps what was stored). One JSON parameter per statement. */
  async storeFills(brokerAccountId: string, fills: readonly ExchangeFill[], pace: { batch: BatchSizes; pause(): Promise<void> }): Promise<void> {
    const size = pace.batch.fills;
    for (let i = 0; i < fills.length; i += size) {
      await pace.pause();
      const json = JSON.stringify(
        fills.slice(i, i + size).map((f) => ({
          i: f.id,
          c: f.symbol,
          t: f.time,
          s: f.side,
          q: f.quantity,
          p: f.price,
          f: f.fee,
          a: f.feeAsset,
          l: f.realizedPnl,
          o: f.orderId,
          ps: f.positionSide,
          n: f.order,
          x: f.closing,
        })),
      );
      await tx.execute(sql`
        insert into broker_fills (user_id, broker_account_id, external_id, contract_id, time, side, quantity, price, fees, fee_asset, pnl, order_id,
          position_side, sequence, closing)
        select ${userId}, ${brokerAccountId}::uuid, i, c, t, s, q, p, f, a, l, o, ps, n, x
        from jsonb_to_recordset(${json}::jsonb) as r(i text, c text, t timestamptz, s text, q numeric, p numeric, f numeric, a text, l numeric, o text,
          ps text, n text, x boolean)
        on conflict (user_id, broker_account_id, external_id) do nothing
      `);
    }
  },

  /** The stored fills after each position's flat point (all of a position without one), as the domain reads them. */
  async fillsAfter(brokerAccountId: string, flat: FlatPoints): Promise<PerpetualFill[]> {
    const rows = await queryRows<Record<string, unknown>>(
      tx,
      sql`
      select f.external_id, f.contract_id, f.time, f.side, f.quantity, f.price, f.fees, f.fee_asset, f.position_side, f.sequence, f.closing
      from broker_fills f
      left join jsonb_each(${JSON.stringify(flat)}::jsonb) p on p.key = f.contract_id || '|' || coalesce(f.position_side, 'BOTH')
      where f.user_id = ${userId} and f.broker_account_id = ${brokerAccountId}
        and (p.key is null or f.time >= (p.value->>'time')::timestamptz)
      order by f.time, length(coalesce(f.sequence, f.external_id)), coalesce(f.sequence, f.external_id)
    `,
    );
    return rows.map((r) => ({
      id: String(r.external_id),
      symbol: String(r.contract_id),
      time: new Date(r.time as string).toISOString(),
      order: String(r.sequence ?? r.external_id),
      side: r.side as 'Buy' | 'Sell',
      quantity: String(r.quantity),
      price: String(r.price),
      fee: String(r.fees),
      feeAsset: String(r.fee_asset ?? ''),
      positionSide: (r.position_side ?? 'BOTH') as PositionSide,
      closing: r.closing === null || r.closing === undefined ? null : Boolean(r.closing),
    }));
  },

  /** The symbols the account traded before: read again by an exchange that reads fills per symbol. */
  async knownSymbols(brokerAccountId: string): Promise<string[]> {
    const rows = await queryRows<{ symbol: string }>(
      tx,
      sql`
      select distinct contract_id as symbol from broker_fills where user_id = ${userId} and broker_account_id = ${brokerAccountId} order by 1
    `,
    );
    return rows.map((r) => r.symbol);
  },

  /** Stores funding payments (one read again keeps what was stored, and the trade it was given to). */
  async storeFunding(brokerAccountId: string, payments: readonly StoredFunding[]): Promise<void> {
    if (payments.length === 0) return;
    const json = JSON.stringify(payments.map((p) => ({ i: p.externalId, c: p.contract, t: p.time, a: p.amount, s: p.asset, ps: p.positionSide })));
    await tx.execute(sql`
      insert into funding_payments (user_id, broker_account_id, external_id, contract, time, amount, asset, position_side)
      select ${userId}, ${brokerAccountId}::uuid, i, c, t, a, s, ps
      from jsonb_to_recordset(${json}::jsonb) as r(i text, c text, t timestamptz, a numeric, s text, ps text)
      on conflict (user_id, broker_account_id, external_id) do nothing
    `);
  },

  /** Payments of the account not yet counted in a trade, in `currency` (others are never counted). */
  async unattributedFunding(brokerAccountId: string, currency: string): Promise<FundingEntry[]> {
    const rows = await queryRows<{ external_id: string; contract: string; time: string; position_side: string | null }>(
      tx,
      sql`
      select external_id, contract, time, position_side from funding_payments
      where user_id = ${userId} and broker_account_id = ${brokerAccountId} and trade_id is null and asset = ${currency}
    `,
    );
    return rows.map((r) => ({
      id: r.external_id,
      contract: r.contract,
      time: Date.parse(new Date(r.time).toISOString()),
      positionSide: r.position_side as FundingEntry['positionSide'],
    }));
  },

  /** The account's trades of these contracts that were open at some time in [from, to]: where payments may belong. */
  async tradesOpenBetween(accountId: string, contracts: readonly string[], from: number, to: number): Promise<FundedTradeCandidate[]> {
    if (contracts.length === 0) return [];
    const rows = await queryRows<{ id: string; contract: string; side: string | null; entry_time: string; exit_time: string }>(
      tx,
      sql`
      select id, contract, side, entry_time, exit_time from trades
      where user_id = ${userId} and account_id = ${accountId}::uuid
        and contract = any(array(select jsonb_array_elements_text(${JSON.stringify(contracts)}::jsonb)))
        and entry_time is not null and exit_time is not null
        and entry_time <= ${new Date(to).toISOString()}::timestamptz and exit_time >= ${new Date(from).toISOString()}::timestamptz
    `,
    );
    return rows.map((r) => ({
      id: r.id,
      contract: r.contract,
      side: r.side === 'Long' || r.side === 'Short' ? r.side : null,
      entry: Date.parse(new Date(r.entry_time).toISOString()),
      exit: Date.parse(new Date(r.exit_time).toISOString()),
    }));
  },

  /** Gives payments to their trades. */
  async attribute(brokerAccountId: string, pairs: ReadonlyMap<string, string>): Promise<void> {
    if (pairs.size === 0) return;
    const json = JSON.stringify([...pairs].map(([payment, trade]) => ({ p: payment, t: trade })));
    await tx.execute(sql`
      update funding_payments f set trade_id = r.t
      from jsonb_to_recordset(${json}::jsonb) as r(p text, t uuid)
      where f.user_id = ${userId} and f.broker_account_id = ${brokerAccountId}::uuid and f.external_id = r.p and f.trade_id is null
    `);
  },

  /** Each trade's payments (in its account's currency) and what its P&L is before funding, for these trades. */
  async fundedTrades(
    tradeIds: readonly string[],
    currency: string,
  ): Promise<Array<{ id: string; grossPnl: string | null; commission: string; pnl: string; amounts: string[] }>> {
    if (tradeIds.length === 0) return [];
    const rows = await queryRows<{ id: string; gross_pnl: string | null; commission: string; pnl: string; amounts: string[] | null }>(
      tx,
      sql`
      select t.id, t.gross_pnl, t.commission, t.pnl,
        (select array_agg(f.amount::text order by f.time) from funding_payments f where f.user_id = t.user_id and f.trade_id = t.id and f.asset = ${currency}) as amounts
      from trades t
      where t.user_id = ${userId} and t.id = any(${`{${tradeIds.join(',')}}`}::uuid[])
    `,
    );
    return rows.map((r) => ({ id: r.id, grossPnl: r.gross_pnl, commission: r.commission, pnl: r.pnl, amounts: r.amounts ?? [] }));
  },

  /** How many of the account's payments count in no trade (yet), and their sum, by asset. */
  async fundingLeftAlone(brokerAccountId: string): Promise<Array<{ asset: string; count: number; amount: string }>> {
    return queryRows<{ asset: string; count: number; amount: string }>(
      tx,
      sql`
      select asset, count(*)::int as count, sum(amount)::text as amount from funding_payments
      where user_id = ${userId} and broker_account_id = ${brokerAccountId}::uuid and trade_id is null
      group by asset order by asset
    `,
    );
  },
});
