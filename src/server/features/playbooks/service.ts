import type { PlaybookDto, PlaybookInput, PlaybookReport, TradePlaybookDto } from '../../../contract/playbooks';
import { deriveFollowedRules } from '../../../domain/playbooks';
import type { ReportFilter } from '../../../domain/reports';
import type { Database, Tx } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import type { FileStorage } from '../../storage';
import { attachmentsRepo, removeStoredFiles } from '../../core/attachments/repo';
import { withReportScope, type ReportScope } from '../../core/engine/scope';
import { playbookReportsOf } from '../../core/engine/playbook-reports';
import { assignTradePlaybook } from '../../core/playbooks/assign';
import { writeTrades, type TradeWriter } from '../../core/trades/write';
import { playbooksRepo, type PlaybookRow, type RuleRow } from '../../core/playbooks/repo';

function toPlaybookDto(row: PlaybookRow, rules: readonly RuleRow[]): PlaybookDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    entry_criteria: row.entryCriteria,
    rules: rules.filter((r) => r.playbookId === row.id).map((r) => ({ id: r.id, text: r.text })),
    trades: row.trades,
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

async function readPlaybook(tx: Tx, userId: string, id: string): Promise<PlaybookDto> {
  const repo = playbooksRepo(tx, userId);
  const [row] = await repo.list(id);
  if (!row) throw notFound('Playbook not found');
  return toPlaybookDto(row, await repo.rules([id]));
}

async function writePlaybook(writer: TradeWriter, id: string | null, input: PlaybookInput): Promise<string> {
  const repo = playbooksRepo(writer.tx, writer.userId);
  // A playbook the trader does not have is a 404 whatever its new name would clash with.
  if (id !== null && (await repo.list(id)).length === 0) throw notFound('Playbook not found');
  if (await repo.nameTaken(input.name, id)) throw badRequest('name: you already have a playbook of this name');
  const values = { name: input.name, description: input.description, entryCriteria: input.entry_criteria };
  let playbookId = id;
  if (playbookId === null) {
    playbookId = await repo.insert(values);
  } else if (!(await repo.update(playbookId, values))) {
    throw notFound('Playbook not found');
  }
  // A rule id must be one of this playbook's: another playbook's (or trader's) rule is not moved here.
  const own = new Set((await repo.rules([playbookId])).map((r) => r.id));
  const ids = input.rules.flatMap((r) => (r.id ? [r.id] : []));
  if (ids.some((ruleId) => !own.has(ruleId)) || new Set(ids).size !== ids.length)
    throw badRequest("rules: a rule id must be one of this playbook's rules");
  await repo.replaceRules(playbookId, input.rules);
  // A rule removed takes its ticks with it: the playbook's trades changed (the engine's copy counts ticks).
  if (ids.length < own.size) await writer.touch(await repo.tradeIds(playbookId));
  return playbookId;
}

/** The trade's playbook, ticks and Reflect's answer; 404 for a trade the trader does not have. */
async function readTradePlaybook(tx: Tx, userId: string, tradeId: string): Promise<TradePlaybookDto> {
  const repo = playbooksRepo(tx, userId);
  const trade = await repo.tradePlaybook(tradeId);
  if (!trade) throw notFound('Trade not found');
  return {
    trade_id: tradeId,
    playbook_id: trade.playbookId,
    ticked_rule_ids: trade.playbookId === null ? [] : await repo.ticks(tradeId),
    followed_rules: await repo.followedRules(tradeId),
  };
}

/** How many of all the trader's trades (any filter aside) have the playbook: its `trades`, counted in the reports' copy. */
function countPlaybookTrades(scope: ReportScope, playbookId: string): number {
  const { codes, values } = scope.columns.playbook;
  const match = new Uint8Array(values.length);
  for (let code = 1; code < values.length; code++) match[code] = values[code] === playbookId ? 1 : 0;
  let count = 0;
  for (let i = 0; i < scope.columns.size; i++) count += match[codes[i]!]!;
  return count;
}

export const playbooksService = {
  list: (db: Database, userId: string): Promise<PlaybookDto[]> =>
    db.withUser(userId, async (tx) => {
      const repo = playbooksRepo(tx, userId);
      const rows = await repo.list();
      const rules = await repo.rules();
      return rows.map((row) => toPlaybookDto(row, rules));
    }),

  get: (db: Database, userId: string, id: string) => db.withUser(userId, (tx) => readPlaybook(tx, userId, id)),

  create: (db: Database, userId: string, input: PlaybookInput) =>
    writeTrades(db, userId, async (writer) => readPlaybook(writer.tx, userId, await writePlaybook(writer, null, input))),

  update: (db: Database, userId: string, id: string, input: PlaybookInput) =>
    writeTrades(db, userId, async (writer) => {
      const { tx } = writer;
      await writePlaybook(writer, id, input);
      // Rules added or removed change whether a trade followed them all: Reflect's answers of its trades follow.
      const repo = playbooksRepo(tx, userId);
      const rules = (await repo.rules([id])).length;
      for (const t of await repo.tickCounts(id)) await repo.setFollowedRules(t.tradeId, deriveFollowedRules(t.ticked, rules));
      return readPlaybook(tx, userId, id);
    }),

  /**
   * Its trades stay, without a playbook (the foreign key's SET NULL); their ticks go with its rules, its images with
   * it (the rows by cascade, then the files it had uploaded).
   */
  async remove(db: Database, storage: FileStorage, userId: string, id: string) {
    const urls = await writeTrades(db, userId, async (writer) => {
      const repo = playbooksRepo(writer.tx, userId);
      const owned = await attachmentsRepo(writer.tx, userId).playbookUrls(id);
      const held = await repo.tradeIds(id);
      if (!(await repo.remove(id))) throw notFound('Playbook not found');
      // Its trades lost it (the foreign key's SET NULL, which the trades' triggers do not watch).
      await writer.touch(held);
      return owned;
    });
    await removeStoredFiles(storage, userId, urls);
  },

  getTradePlaybook: (db: Database, userId: string, tradeId: string) => db.withUser(userId, (tx) => readTradePlaybook(tx, userId, tradeId)),

  /**
   * Sets a trade's playbook and the rules of it the trade followed, and with them Reflect's "followed the rules" (every
   * rule ticked: followed). Taking no playbook leaves Reflect's answer as it was.
   */
  setTradePlaybook: (db: Database, userId: string, tradeId: string, input: { playbook_id: string | null; ticked_rule_ids: string[] }) =>
    writeTrades(db, userId, async (writer) => {
      const repo = playbooksRepo(writer.tx, userId);
      if (!(await repo.tradePlaybook(tradeId))) throw notFound('Trade not found');
      await assignTradePlaybook(writer, tradeId, input.playbook_id, input.ticked_rule_ids);
      return readTradePlaybook(writer.tx, userId, tradeId);
    }),

  /**
   * One playbook's report. The playbook and its rules are read in one transaction, beside the report's scope (on
   * PostgreSQL, on two connections at once); its count of trades comes from the reports' copy of the trades, not from a
   * count over the trades table (the cost of this report at 100,000 trades on PGlite).
   */
  async report(db: Database, userId: string, id: string, filter: ReportFilter, now: Date): Promise<PlaybookReport> {
    const reading = db.withUser(userId, async (tx) => {
      const repo = playbooksRepo(tx, userId);
      const [row] = await repo.find(id);
      return row ? { row, rules: await repo.rules([id]) } : null;
    });
    // Awaited inside the scope below; a failure is reported there, not left unhandled meanwhile.
    reading.catch(() => undefined);
    // The scope is the playbook's trades under the filter: its basis ("Computed from 2 trades") counts what the report does.
    return withReportScope(db, userId, filter.playbook.length === 0 ? { ...filter, playbook: [id] } : filter, now, async (scope) => {
      const read = await reading;
      if (!read) throw notFound('Playbook not found');
      const playbook = toPlaybookDto({ ...read.row, trades: countPlaybookTrades(scope, id) }, read.rules);
      const report = playbookReportsOf(scope, read.rules, id)(id);
      return { basis: scope.basis, playbook, report };
    });
  },
};
