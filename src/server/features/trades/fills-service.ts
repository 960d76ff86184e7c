import type { FillsInput, TradeFills } from '../../../contract/market';
import { roundTripFromFills } from '../../../domain/fills';
import { resultOf } from '../../../domain/importers';
import { marketKeyOf } from '../../../domain/market/bars';
import { centsToDecimalString, MAX_MONEY_CENTS, toCents } from '../../../domain/money';
import { fillsRepo, toFillDto, toFillRecord } from '../../core/trades/fills';
import { tradesRepo } from '../../core/trades/repo';
import { writeTrades } from '../../core/trades/write';
import type { Database } from '../../db/client';
import { badRequest, HttpError, notFound } from '../../http/errors';

const iso = (ms: number) => new Date(ms).toISOString();

/** Imported trades keep the fills of the broker's file; a manual trade's are the trader's to change. */
const isEditable = (trade: { importSource: string | null }) => trade.importSource === null;

/** A trade's fills (GET and PUT /api/trades/:id/fills). */
export const tradeFillsService = {
  async list(db: Database, userId: string, tradeId: string): Promise<TradeFills> {
    const result = await db.withUser(userId, async (tx) => {
      const trade = await tradesRepo(tx, userId).find(tradeId);
      if (!trade) return null;
      const fills = await fillsRepo(tx, userId).list(tradeId);
      return { trade_id: tradeId, editable: isEditable(trade), fills: fills.map((f) => toFillDto(toFillRecord(f))) };
    });
    if (!result) throw notFound('Trade not found');
    return result;
  },

  /**
   * A manual trade's fills, all of them: the trade's side, quantity, average prices, times and gross P&L (and its
   * commission, when the fills give theirs) follow from them, its net P&L and result too, in one transaction with the
   * fills; its MAE and MFE are computed again. No fills: the trade keeps its fields and has no fills.
   */
  async save(db: Database, userId: string, tradeId: string, input: FillsInput): Promise<TradeFills> {
    const result = await writeTrades(db, userId, async (writer) => {
      const trade = await tradesRepo(writer.tx, userId).lock(tradeId);
      if (!trade) return null;
      if (!isEditable(trade)) {
        throw new HttpError(409, "An imported trade keeps the fills of the broker's file; import the file again to change them", {
          code: 'fills-imported',
        });
      }
      if (input.fills.length === 0) {
        await writer.replaceFills(tradeId, []);
      } else {
        const computed = roundTripFromFills(
          input.fills.map((f) => ({
            time: Date.parse(f.time),
            side: f.side,
            quantity: f.quantity,
            price: f.price,
            commission: f.commission ?? null,
          })),
          marketKeyOf(trade.contract, trade.symbol),
        );
        if (!computed.ok) throw badRequest(computed.message, { fields: [{ field: computed.field, message: computed.message }] });
        const trip = computed.trip;
        const commission = trip.commissionCents ?? toCents(trade.commission);
        const net = trip.grossPnlCents - commission;
        if (!(Math.abs(net) <= MAX_MONEY_CENTS)) {
          const message = 'fills: the trade they make would have a net P&L beyond $999,999,999.99; check their prices and quantities';
          throw badRequest(message, { fields: [{ field: 'fills', message }] });
        }
        await writer.update(tradeId, {
          side: trip.side,
          quantity: trip.quantity.toFixed(),
          entryPrice: trip.entryPrice.toFixed(),
          exitPrice: trip.exitPrice.toFixed(),
          entryTime: iso(trip.entryTime),
          exitTime: iso(trip.exitTime),
          grossPnl: centsToDecimalString(trip.grossPnlCents),
          commission: centsToDecimalString(commission),
          pnl: centsToDecimalString(net),
          status: resultOf(net),
        });
        await writer.replaceFills(
          tradeId,
          trip.fills.map((fill) => ({
            time: iso(fill.time),
            side: fill.side,
            quantity: fill.quantity.toFixed(),
            price: fill.price.toFixed(),
            commission: fill.commission === null ? null : centsToDecimalString(fill.commission),
          })),
        );
      }
      const fills = await fillsRepo(writer.tx, userId).list(tradeId);
      return { trade_id: tradeId, editable: true, fills: fills.map((f) => toFillDto(toFillRecord(f))) };
    });
    if (!result) throw notFound('Trade not found');
    return result;
  },
};
