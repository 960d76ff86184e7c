import { buildNoteDraftPrompt, NOTE_DRAFT_SYSTEM, type DraftTrade } from '../../../domain/notes';
import type { AiRequest } from '../../ai';
import type { Database } from '../../db/client';
import { badRequest } from '../../http/errors';
import { tradesRepo } from '../../core/trades/repo';
import type { DraftInput } from './schemas';

/** Long enough for a full pre-market plan or review; short enough to stay a note. */
const DRAFT_MAX_TOKENS = 1200;

/**
 * The provider request for 'Write with AI': the note's title and text, the trader's instruction and, when the note is
 * linked to a trade, that trade's stored figures (read for the signed-in trader only; another trader's id is a 400).
 */
export async function buildDraftRequest(db: Database, userId: string, input: DraftInput, signal: AbortSignal): Promise<AiRequest> {
  let trade: DraftTrade | null = null;
  if (input.trade_id) {
    const row = await db.withUser(userId, (tx) => tradesRepo(tx, userId).find(input.trade_id!));
    if (!row) throw badRequest('trade_id: Trade not found');
    trade = {
      symbol: row.symbol,
      date: new Date(row.tradeDate).toISOString().slice(0, 10),
      dayOfWeek: row.dayOfWeek,
      session: row.period,
      type: row.tradeType,
      result: row.status,
      pnl: row.pnl,
      commission: row.commission,
      side: row.side,
      quantity: row.quantity,
      entryPrice: row.entryPrice,
      exitPrice: row.exitPrice,
      tags: row.tags,
      notes: row.notes,
    };
  }
  return {
    purpose: 'draft',
    system: NOTE_DRAFT_SYSTEM,
    messages: [
      { role: 'user', content: buildNoteDraftPrompt({ title: input.title, content: input.content, instruction: input.instruction, trade }) },
    ],
    maxTokens: DRAFT_MAX_TOKENS,
    temperature: 0.6,
    signal,
  };
}
