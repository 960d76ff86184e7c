import { deriveFollowedRules } from '../../../domain/playbooks';
import { badRequest } from '../../http/errors';
import type { TradeWriter } from '../trades/write';
import { playbooksRepo } from './repo';

/**
 * Gives one of the trader's trades (already checked) a playbook of theirs, or none, with the rules of it the trade
 * followed: PUT /api/trade-playbooks and PATCH /api/trades share it. A playbook or rule that is not the trader's is a
 * 400 naming the field; Reflect's answer follows the ticks.
 */
export async function assignTradePlaybook(writer: TradeWriter, tradeId: string, playbookId: string | null, tickedRuleIds: readonly string[]) {
  const repo = playbooksRepo(writer.tx, writer.userId);
  const ticked = [...new Set(tickedRuleIds)];
  if (playbookId === null) {
    if (ticked.length > 0) throw badRequest("ticked_rule_ids: must be rules of the trade's playbook");
    await writer.setPlaybook(tradeId, null, []);
    return;
  }
  if ((await repo.list(playbookId)).length === 0) throw badRequest('playbook_id: Playbook not found');
  const rules = await repo.rules([playbookId]);
  const own = new Set(rules.map((r) => r.id));
  if (ticked.some((id) => !own.has(id))) throw badRequest("ticked_rule_ids: must be rules of the trade's playbook");
  await writer.setPlaybook(tradeId, playbookId, ticked);
  const followed = deriveFollowedRules(ticked.length, rules.length);
  if (followed !== null) await repo.setFollowedRules(tradeId, followed);
}

/**
 * Reflect's answer for a trade with a playbook is its checklist: followed ticks every rule, broken or not rated clears
 * the ticks. Returns false when the trade has no playbook with rules (Reflect keeps its own answer).
 */
export async function applyReflectAnswer(writer: TradeWriter, tradeId: string, followed: boolean | null): Promise<boolean> {
  const repo = playbooksRepo(writer.tx, writer.userId);
  const trade = await repo.tradePlaybook(tradeId);
  if (!trade?.playbookId) return false;
  const rules = await repo.rules([trade.playbookId]);
  if (rules.length === 0) return false;
  await writer.setPlaybook(tradeId, trade.playbookId, followed === true ? rules.map((r) => r.id) : []);
  return true;
}
