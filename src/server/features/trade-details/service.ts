import type { TradeDetails } from '../../../contract/trade-details';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { attachmentsRepo, toAttachmentDto } from '../../core/attachments/repo';
import { notesRepo, toNoteSummary } from '../../core/notes/repo';

import { tradesRepo } from '../../core/trades/repo';
import { loadRiskDefaults } from '../../core/risk/repo';
import { toTradeDto } from '../../core/trades/dto';
import { fillsRepo, toFillDto, toFillRecord } from '../../core/trades/fills';
import { tradeNeighborsRepo } from './repo';

/** Linked notes shown in full on the trade's page; a trade with more lists the newest. */
const LINKED_NOTES_MAX = 200;

export const tradeDetailsService = {
  /**
   * Everything /trade/{id} shows, read in one transaction: every stored field of the trade, the previous (older)
   * and next (newer) trade, its linked notes with their bodies, its attachments and its fills. Another trader's id, like an
   * unknown one, is a 404.
   */
  async get(db: Database, userId: string, id: string): Promise<TradeDetails> {
    const result = await db.withUser(userId, async (tx) => {
      const trade = await tradesRepo(tx, userId).find(id);
      if (!trade) return null;
      const neighbors = await tradeNeighborsRepo(tx, userId).neighbors(trade);
      const notes = notesRepo(tx, userId);
      const linked = await notes.page({ tradeId: id }, LINKED_NOTES_MAX);
      const bodies = await notes.contents(linked.map((n) => n.id));
      const files = await attachmentsRepo(tx, userId).list({ kind: 'trade', id });
      const fills = await fillsRepo(tx, userId).list(id);
      return {
        trade: toTradeDto(trade, await loadRiskDefaults(tx, userId)),
        previous_id: neighbors.previous,
        next_id: neighbors.next,
        notes: linked.map((row) => ({ ...toNoteSummary(row), content: bodies.get(row.id) ?? '' })),
        attachments: files.map(toAttachmentDto),
        fills: fills.map((f) => toFillDto(toFillRecord(f))),
        // Imported trades keep the fills of the broker's file; a manual trade's are the trader's.
        fills_editable: trade.importSource === null,
      };
    });
    if (!result) throw notFound('Trade not found');
    return result;
  },
};
