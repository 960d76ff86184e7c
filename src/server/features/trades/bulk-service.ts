import { sql } from 'drizzle-orm';
import type { BulkEditInput, BulkEditResult, BulkRestoreResult, BulkTradeState } from '../../../contract/trades';
import { deriveFollowedRules } from '../../../domain/playbooks';
import { addTags, removeTags } from '../../../domain/trades/trade-options';
import { lockFor } from '../../db/advisory-lock';
import { queryRows, type Database, type Tx } from '../../db/client';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { accountsRepo } from '../../core/accounts/repo';
import { playbooksRepo } from '../../core/playbooks/repo';
import { writeTrades, type TradeWriter } from '../../core/trades/write';

interface BulkRow {
  id: string;
  account_id: string | null;
  playbook_id: string | null;
  trade_type: string;
  tags: string[] | null;
  import_key: string | null;
}

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/**
 * The selected trades, locked until the transaction ends, in trading order (a move keeps the earliest of two trades of
 * one import key). Every id must be one of the trader's trades: another trader's id changes nothing and is a 404.
 */
async function lockSelected(tx: Tx, userId: string, ids: readonly string[]): Promise<BulkRow[]> {
  const unique = [...new Set(ids)];
  const rows = await queryRows<BulkRow>(
    tx,
    sql`
    select id, account_id, playbook_id, trade_type, tags, import_key from trades
    where user_id = ${userId} and id = any(${uuidArray(unique)})
    order by trade_date, entry_time nulls last, created_at, id
    for update`,
  );
  if (rows.length !== unique.length) {
    const missing = unique.length - rows.length;
    throw notFound(`${missing} of the ${unique.length} selected trades ${missing === 1 ? 'was' : 'were'} not found. Nothing was changed.`);
  }
  return rows;
}

/** The trades' state before the edit, with their ticked rules and Reflect's "followed the rules": what Undo writes back. */
async function statesOf(tx: Tx, userId: string, rows: readonly BulkRow[]): Promise<BulkTradeState[]> {
  if (rows.length === 0) return [];
  const ids = uuidArray(rows.map((r) => r.id));
  const [ticks, reflections] = await Promise.all([
    queryRows<{ trade_id: string; rule_id: string }>(
      tx,
      sql`select trade_id, rule_id from trade_rule_checks where user_id = ${userId} and trade_id = any(${ids}) order by rule_id`,
    ),
    queryRows<{ trade_id: string; followed_rules: boolean | null }>(
      tx,
      sql`select trade_id, followed_rules from trade_reflections where user_id = ${userId} and trade_id = any(${ids})`,
    ),
  ]);
  const ticked = new Map<string, string[]>();
  for (const t of ticks) ticked.set(t.trade_id, [...(ticked.get(t.trade_id) ?? []), t.rule_id]);
  const followed = new Map(reflections.map((r) => [r.trade_id, r.followed_rules]));
  return rows.map((r) => ({
    id: r.id,
    account_id: r.account_id,
    playbook_id: r.playbook_id,
    trade_type: r.trade_type,
    tags: r.tags ?? [],
    ticked_rule_ids: ticked.get(r.id) ?? [],
    followed_rules: followed.get(r.id) ?? null,
  }));
}

/** Postgres' unique violation, however the driver wraps it. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * A move into `accountId` under the duplicate rule of imports: a trade whose import key the account already holds (or
 * which an earlier trade of the same move takes there) stays where it is and is named; the others move.
 */
async function planMove(tx: Tx, userId: string, rows: readonly BulkRow[], accountId: string) {
  const moving = rows.filter((r) => r.account_id !== accountId);
  const keys = [...new Set(moving.map((r) => r.import_key).filter((k): k is string => k !== null))];
  const held =
    keys.length === 0
      ? []
      : await queryRows<{ import_key: string }>(
          tx,
          sql`
          select import_key from trades where user_id = ${userId} and account_id = ${accountId} and import_key = any(${`{${keys.map((k) => JSON.stringify(k)).join(',')}}`}::text[])`,
        );
  const taken = new Set(held.map((h) => h.import_key));
  const moved: BulkRow[] = [];
  const skipped: string[] = [];
  for (const row of moving) {
    if (row.import_key !== null && taken.has(row.import_key)) {
      skipped.push(row.id);
      continue;
    }
    if (row.import_key !== null) taken.add(row.import_key);
    moved.push(row);
  }
  return { moved, skipped };
}

/** The playbook's change on these trades, as a trade's page makes it: no ticks, Reflect's answer follows. */
async function applyPlaybook(writer: TradeWriter, rows: readonly BulkRow[], playbookId: string | null) {
  const repo = playbooksRepo(writer.tx, writer.userId);
  const changed = rows.filter((r) => r.playbook_id !== playbookId);
  if (playbookId === null) {
    await writer.setPlaybookMany(
      changed.map((r) => r.id),
      null,
    );
    return changed;
  }
  if ((await repo.list(playbookId)).length === 0) throw badRequest('action.playbook_id: Playbook not found');
  await writer.setPlaybookMany(
    changed.map((r) => r.id),
    playbookId,
  );
  const followed = deriveFollowedRules(0, (await repo.rules([playbookId])).length);
  if (followed !== null)
    await setFollowed(
      writer.tx,
      writer.userId,
      changed.map((r) => ({ id: r.id, followed_rules: followed })),
    );
  return changed;
}

/**
 * Reflect's "followed the rules" of these trades. A trade whose reflection would be left empty (no answer, tags or
 * text) has none: an undone edit leaves no empty reflection behind.
 */
async function setFollowed(tx: Tx, userId: string, values: ReadonlyArray<{ id: string; followed_rules: boolean | null }>) {
  if (values.length === 0) return;
  const json = JSON.stringify(values);
  await tx.execute(sql`
    insert into trade_reflections (trade_id, user_id, followed_rules)
    select r.id, ${userId}, r.followed_rules from jsonb_to_recordset(${json}::jsonb) as r(id uuid, followed_rules boolean)
    on conflict (user_id, trade_id) do update set followed_rules = excluded.followed_rules, updated_at = now()`);
  await tx.execute(sql`
    delete from trade_reflections where user_id = ${userId} and trade_id = any(${uuidArray(values.map((v) => v.id))})
      and followed_rules is null and tags is null and description is null`);
}

export const bulkTradesService = {
  /**
   * One change for the selected trades, in one transaction through the one door for trades: all of it or, on any
   * error, none. Answers the trades changed and their state before, which POST /api/trades/bulk-restore writes back.
   */
  edit: (db: Database, userId: string, input: BulkEditInput): Promise<BulkEditResult> =>
    writeTrades(db, userId, async (writer) => {
      const { tx } = writer;
      const { action } = input;
      const rows = await lockSelected(tx, userId, input.ids);
      // Read before any write of this transaction reaches them: what Undo writes back.
      const before = await statesOf(tx, userId, rows);
      let changed: BulkRow[];
      let skipped: string[] = [];
      switch (action.kind) {
        case 'playbook':
          changed = await applyPlaybook(writer, rows, action.playbook_id);
          break;
        case 'setup':
          changed = rows.filter((r) => r.trade_type !== action.setup);
          await writer.updateMany(
            changed.map((r) => r.id),
            { tradeType: action.setup },
          );
          break;
        case 'add_tags':
        case 'remove_tags': {
          const next = rows.map((r) => ({
            row: r,
            tags: action.kind === 'add_tags' ? addTags(r.tags ?? [], action.tags) : removeTags(r.tags ?? [], action.tags),
          }));
          const differ = next.filter(({ row, tags }) => JSON.stringify(tags) !== JSON.stringify(row.tags ?? []));
          changed = differ.map((d) => d.row);
          await writer.updateEach(
            differ.map((d) => ({ id: d.row.id, tags: d.tags })),
            'id uuid, tags text[]',
            sql`tags = r.tags`,
          );
          break;
        }
        case 'move': {
          if (!(await accountsRepo(tx, userId).exists(action.account_id))) throw badRequest('action.account_id: Trading account not found');
          // The duplicate rule is the unique import key's: a move and an import into one account do not interleave.
          await lockFor(tx, 'account_imports', action.account_id);
          const plan = await planMove(tx, userId, rows, action.account_id);
          changed = plan.moved;
          skipped = plan.skipped;
          await writer.updateMany(
            changed.map((r) => r.id),
            { accountId: action.account_id },
          );
          break;
        }
      }
      const ids = new Set(changed.map((r) => r.id));
      return { updated: changed.length, skipped_duplicates: skipped, before: before.filter((s) => ids.has(s.id)) };
    }),

  /**
   * The trades written back as a bulk edit found them (its Undo), all or nothing: their account, playbook with its
   * ticks and Reflect's answer, setup and tags. A trade that is no longer the trader's is a 404; an account or playbook
   * deleted since is a 400; a trade whose import key its old account holds again (a file imported again) is a 409.
   */
  async restore(db: Database, userId: string, states: readonly BulkTradeState[]): Promise<BulkRestoreResult> {
    try {
      return await writeTrades(db, userId, async (writer) => {
        const { tx } = writer;
        const rows = await lockSelected(
          tx,
          userId,
          states.map((s) => s.id),
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        const accounts = [...new Set(states.map((s) => s.account_id).filter((a): a is string => a !== null))];
        for (const account of accounts.sort()) {
          if (!(await accountsRepo(tx, userId).exists(account))) throw badRequest('account_id: Trading account not found');
          await lockFor(tx, 'account_imports', account);
        }
        const playbooks = [...new Set(states.map((s) => s.playbook_id).filter((p): p is string => p !== null))];
        if (playbooks.length > 0 && (await playbooksRepo(tx, userId).list()).filter((p) => playbooks.includes(p.id)).length !== playbooks.length) {
          throw badRequest('playbook_id: Playbook not found');
        }
        await writer.updateEach(
          states.map((s) => ({ id: s.id, account_id: s.account_id, trade_type: s.trade_type, tags: s.tags })),
          'id uuid, account_id uuid, trade_type text, tags text[]',
          sql`account_id = r.account_id, trade_type = r.trade_type, tags = r.tags`,
        );
        // The playbook, its ticks and Reflect's answer, for the trades whose playbook the edit changed.
        const replaced = states.filter((s) => byId.get(s.id)!.playbook_id !== s.playbook_id);
        for (const playbookId of new Set(replaced.map((s) => s.playbook_id))) {
          await writer.setPlaybookMany(
            replaced.filter((s) => s.playbook_id === playbookId).map((s) => s.id),
            playbookId,
          );
        }
        await writer.replaceTicks(replaced.map((s) => ({ tradeId: s.id, ruleIds: s.ticked_rule_ids })));
        await setFollowed(
          tx,
          userId,
          replaced.map((s) => ({ id: s.id, followed_rules: s.followed_rules })),
        );
        return { restored: states.length };
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new HttpError(409, 'A trade with the same import key is already in its former account (imported again since). Nothing was changed.', {
          code: 'duplicate-trade',
        });
      }
      throw error;
    }
  },
};
