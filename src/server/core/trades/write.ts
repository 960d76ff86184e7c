import { and, eq, sql, type SQL } from 'drizzle-orm';
import { marketKeyOf } from '../../../domain/market/bars';
import { queryRows, yieldConnection, type Database, type Tx } from '../../db/client';
import { tradeFills, tradeRuleChecks, trades } from '../../db/schema';
import { tradesCacheOf } from '../engine/trades-cache';
import { recomputeExcursions, recomputeForContract } from '../market/excursions';
import { FILL_JSON_COLUMNS, toFillJson, type FillRecord } from './fills';
import type { NewTradeRow } from './repo';

/**
 * The one door for every write of trades: adding, editing and deleting them, their fills, their plans, their playbooks
 * and ticks, file imports, restores, broker syncs, fee schedules applied again and re-filed trading days. A write opens
 * with `writeTrades`, which runs it in one transaction as the trader and ends it with one step, `afterTradesWritten`,
 * inside that transaction: the per-day rollups, the trader's version and change log and the accounts' versions are
 * brought up to date once for the whole write (the triggers on trades only note what each statement touched while a
 * write is open: migration trade_writes), the trades' MAE and MFE are computed again where their execution changed, and
 * then, once committed, the read side hears of it (the engine's copy of the trader's trades catches up before the
 * answer goes) and the planner's statistics are refreshed after large writes.
 *
 * Nothing else in the server writes the trades or trade_fills tables, or a trade's ticked rules (a test holds it so).
 */

/** A trade with the fills it was traded in, in the order traded (none: a trade without fills). */
export type NewTrade = NewTradeRow & { fills?: readonly FillRecord[] | null };

/** What a statement of fills reads: [{ trade_id, fills }] or [{ account_id, import_key, fills }]. */
type FillsByTrade = ReadonlyArray<{ tradeId: string; fills: readonly FillRecord[] }>;

/** The columns of a trade whose change moves its MAE and MFE (its execution). */
const EXECUTION_FIELDS = new Set<keyof NewTradeRow>([
  'symbol',
  'contract',
  'side',
  'quantity',
  'entryPrice',
  'exitPrice',
  'entryTime',
  'exitTime',
  'grossPnl',
  'pnl',
  'commission',
]);

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** The columns of a new trade as the JSON the insert statements expand (jsonb_to_recordset). */
function toInsertJson(row: NewTrade, seq: number) {
  return {
    seq,
    account_id: row.accountId ?? null,
    trade_date: row.tradeDate,
    day_of_week: row.dayOfWeek,
    symbol: row.symbol ?? 'Unknown',
    period: row.period ?? '',
    trade_type: row.tradeType ?? '',
    status: row.status ?? 'BE',
    pnl: row.pnl ?? '0',
    commission: row.commission ?? '0',
    link: row.link ?? '',
    notes: row.notes ?? '',
    tags: row.tags ?? [],
    side: row.side ?? null,
    contract: row.contract ?? null,
    entry_time: row.entryTime ?? null,
    exit_time: row.exitTime ?? null,
    entry_price: row.entryPrice ?? null,
    exit_price: row.exitPrice ?? null,
    quantity: row.quantity ?? null,
    gross_pnl: row.grossPnl ?? null,
    stop_price: row.stopPrice ?? null,
    risk_amount: row.riskAmount ?? null,
    target_price: row.targetPrice ?? null,
    import_source: row.importSource ?? null,
    import_key: row.importKey ?? null,
    commission_source: row.commissionSource ?? null,
    playbook_id: row.playbookId ?? null,
    fills: row.fills && row.fills.length > 0 ? toFillJson(row.fills) : null,
  };
}

/**
 * A new trade's id, ordered by its place in the write (`seq`): a version-7 UUID whose first 48 bits are the
 * transaction's start in milliseconds, then `seq` (26 bits around the version and variant bits), then 48 random bits.
 * The trades' ids and the fills' primary key (trader, trade, seq) then grow at their right edge, one page after
 * another, where random ids put each trade and each of its fills on a page of their own: on the embedded database,
 * whose 16 MB of buffers hold a fraction of a large import's indexes, most rows cost a page read and a page written
 * back (100,000 fills: 38,800 pages written and 23,100 read with random ids, 30,600 and 11,100 ordered; a second such
 * import into another account 76,800 and 76,000 against 30,400 and 19,000). Ids stay unique by their random bits.
 */
const orderedId = (seq: SQL) => sql`encode(overlay(overlay(uuid_send(gen_random_uuid())
    placing int8send(((extract(epoch from now()) * 1000)::bigint << 16) | 28672 | ((${seq} >> 14) & 4095)) from 1 for 8)
    placing substring(int4send(32768 | (${seq} & 16383)) from 3 for 2) from 9 for 2), 'hex')::uuid`;

/** The recordset of toInsertJson (and of the parse worker's import chunks, which carry the same keys). */
const INSERT_RECORD = sql.raw(`seq int, account_id uuid, trade_date timestamptz, day_of_week text, symbol text, period text,
  trade_type text, status text, pnl numeric, commission numeric, link text, notes text, tags text[], side text, contract text,
  entry_time timestamptz, exit_time timestamptz, entry_price numeric, exit_price numeric, quantity numeric, gross_pnl numeric,
  stop_price numeric, risk_amount numeric, target_price numeric, import_source text, import_key text, commission_source text,
  playbook_id uuid, fills jsonb`);

/** Trading days whose rollups one statement of a write's last step refreshes (afterTradesWritten). */
export const ROLLUP_DAYS_PER_STATEMENT = 100;

export class TradeWriter {
  private begun = false;
  /** Trades inserted, changed or deleted: the planner's statistics are refreshed after enough of them. */
  private written = 0;
  /** Trades whose execution changed: their MAE and MFE are computed again. */
  private readonly measured = new Set<string>();
  /** Contracts whose trades in a span changed (an import, a restore): their MAE and MFE are computed again. */
  private readonly spans = new Map<string, { from: number; to: number }>();

  constructor(
    readonly tx: Tx,
    readonly userId: string,
    private readonly database: Database,
  ) {}

  /** Lets other requests run between two statements of a long write (yieldConnection). */
  pause(): Promise<void> {
    return yieldConnection(this.tx);
  }

  /** Rows per statement of a bulk write on this database. */
  get batch() {
    return this.database.batch;
  }

  private async begin() {
    if (this.begun) return;
    this.begun = true;
    await this.tx.execute(sql`select begin_trade_writes()`);
  }

  private measure(ids: Iterable<string>) {
    for (const id of ids) this.measured.add(id);
  }

  /** Trades of `contract` (its market key) traded within [from, to]: their MAE and MFE follow. */
  measureSpan(contract: string, from: number, to: number) {
    const known = this.spans.get(contract);
    this.spans.set(contract, known ? { from: Math.min(known.from, from), to: Math.max(known.to, to) } : { from, to });
  }

  private measureTrade(trade: { contract?: string | null; symbol?: string | null; entryTime?: string | null; exitTime?: string | null }) {
    if (!trade.entryTime || !trade.exitTime) return;
    const from = Date.parse(trade.entryTime);
    const to = Date.parse(trade.exitTime);
    if (Number.isFinite(from) && Number.isFinite(to)) this.measureSpan(marketKeyOf(trade.contract ?? null, trade.symbol ?? ''), from, to);
  }

  /**
   * Inserts trades with their fills, `batch.trades` a statement; with `skipKnownKeys`, those whose (account, import key)
   * the account holds already are skipped (the unique index decides, whatever runs at the same time). Returns the
   * inserted trades' ids and import keys, in the order given. Creation times follow the order given, a microsecond
   * apart, so trades of one transaction keep it in the trading order's last keys.
   */
  async insert(rows: readonly NewTrade[], options: { skipKnownKeys?: boolean } = {}): Promise<Array<{ id: string; importKey: string | null }>> {
    await this.begin();
    const inserted: Array<{ id: string; importKey: string | null }> = [];
    const size = this.batch.trades;
    for (let i = 0; i < rows.length; i += size) {
      if (i > 0) await this.pause();
      const json = JSON.stringify(rows.slice(i, i + size).map((row, k) => toInsertJson(row, i + k)));
      const added = await queryRows<{ id: string; import_key: string | null }>(
        this.tx,
        sql`
        with input as materialized (
          select r.*, ${orderedId(sql`r.seq`)} as id from jsonb_to_recordset(${json}::jsonb) as r(${INSERT_RECORD})
        ),
        added as (
          insert into trades (id, user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
            commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
            gross_pnl, stop_price, risk_amount, target_price, import_source, import_key, commission_source, playbook_id, created_at)
          select id, ${this.userId}, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
            commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
            gross_pnl, stop_price, risk_amount, target_price, import_source, import_key, commission_source, playbook_id,
            now() + seq * interval '1 microsecond'
          from input
          ${options.skipKnownKeys ? sql`on conflict (user_id, account_id, import_key) do nothing` : sql``}
          returning id
        ),
        filled as (
          insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
          select ${this.userId}, i.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
          from added a join input i on i.id = a.id
          cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
          where i.fills is not null
        )
        select i.id, i.import_key from added a join input i on i.id = a.id order by i.seq
      `,
      );
      for (const row of added) inserted.push({ id: row.id, importKey: row.import_key });
    }
    this.written += inserted.length;
    for (const row of rows) this.measureTrade(row);
    return inserted;
  }

  /** One trade, as the trader wrote it; its id. */
  async insertOne(row: NewTrade): Promise<string> {
    const [created] = await this.insert([row]);
    return created!.id;
  }

  /**
   * One chunk of a broker file's trades as the parse worker prepared it (a JSON array of records carrying their
   * fills): those whose (account, import key) the account holds are skipped. The dialog's setup goes to trades the file
   * names none for, its playbook to all of them. Returns how many were inserted.
   */
  async insertImportChunk(chunk: string, options: { setup?: string; playbookId?: string } = {}): Promise<number> {
    await this.begin();
    const setup = options.setup ?? '';
    const playbookId = options.playbookId ?? null;
    const [row] = await queryRows<{ n: number | string }>(
      this.tx,
      sql`
      with input as materialized (
        select * from jsonb_to_recordset(${chunk}::jsonb) as r(seq int, account_id uuid, trade_date timestamptz,
          day_of_week text, symbol text, period text, trade_type text, status text, pnl numeric, commission numeric,
          link text, notes text, tags text[], side text, contract text, entry_time timestamptz, exit_time timestamptz,
          entry_price numeric, exit_price numeric, quantity numeric, gross_pnl numeric, import_source text,
          import_key text, commission_source text, fills jsonb)
      ),
      added as (
        insert into trades (id, user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
          commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
          gross_pnl, import_source, import_key, commission_source, playbook_id, created_at)
        select ${orderedId(sql`seq`)}, ${this.userId}, account_id, trade_date, day_of_week, symbol, period,
          case when trade_type = '' then ${setup}::text else trade_type end, status, pnl,
          commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
          gross_pnl, import_source, import_key, commission_source, ${playbookId}::uuid, now() + seq * interval '1 microsecond'
        from input
        on conflict (user_id, account_id, import_key) do nothing
        returning id, import_key
      ),
      filled as (
        insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
        select ${this.userId}, a.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
        from added a join input i on i.import_key = a.import_key
        cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
        where i.fills is not null
      )
      select count(*)::int as n from added
    `,
    );
    const n = Number(row?.n ?? 0);
    this.written += n;
    return n;
  }

  /**
   * One chunk of a JSON backup's records (the parse worker's), skipping those the account holds already (same original
   * id); the fills of each record go to the trade of that account and import key if it has none yet (restored now, or
   * held from before fills were kept). Returns how many trades were inserted.
   *
   * The fills of the trades inserted here go in with them, in the same statement, found by the keys the insert returns:
   * looking them up in the trades table afterwards was planned from the table's statistics, which right after a large
   * delete say it is empty, and then each chunk read the whole table (up to 2 s a chunk on a long-used embedded
   * database). Only a chunk with records the account held already looks there, for those.
   */
  async insertBackupChunk(chunk: string): Promise<number> {
    await this.begin();
    const [row] = await queryRows<{ n: number | string; given: number | string; filled: string[] | null }>(
      this.tx,
      sql`
      with input as materialized (
        select * from jsonb_to_recordset(${chunk}::jsonb) as r(user_id text, account_id uuid, trade_date timestamptz,
          day_of_week text, symbol text, period text, trade_type text, status text, pnl numeric, commission numeric,
          link text, notes text, tags text[], side text, contract text, entry_time timestamptz, exit_time timestamptz,
          entry_price numeric, exit_price numeric, quantity numeric, gross_pnl numeric, stop_price numeric,
          risk_amount numeric, target_price numeric, import_source text, import_key text, created_at timestamptz,
          fills jsonb)
      ),
      added as (
        insert into trades (user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
          commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
          gross_pnl, stop_price, risk_amount, target_price, import_source, import_key, created_at)
        select user_id, account_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl,
          commission, link, notes, tags, side, contract, entry_time, exit_time, entry_price, exit_price, quantity,
          gross_pnl, stop_price, risk_amount, target_price, import_source, import_key, coalesce(created_at, now())
        from input
        on conflict do nothing
        returning id, account_id, import_key
      ),
      filled as (
        insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
        select ${this.userId}, a.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
        from added a join input i on i.account_id = a.account_id and i.import_key = a.import_key
        cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
        where i.fills is not null
        returning trade_id
      )
      select (select count(*)::int from added) as n, (select count(*)::int from input) as given,
        (select json_agg(distinct trade_id) from filled) as filled
    `,
    );
    const n = Number(row?.n ?? 0);
    this.written += n;
    this.measure(row?.filled ?? []);
    if (n < Number(row?.given ?? 0)) {
      await this.pause();
      await this.attachByImportKey(chunk);
    }
    return n;
  }

  /**
   * Fills of records ([{ account_id, import_key, fills }]) for the trades of that account and import key that have none
   * (a file imported again, whose trades were stored before fills were kept). Returns how many trades got fills.
   */
  async attachByImportKey(chunk: string): Promise<number> {
    await this.begin();
    const rows = await queryRows<{ trade_id: string }>(
      this.tx,
      sql`
      with input as (
        select account_id, import_key, fills from jsonb_to_recordset(${chunk}::jsonb) as r(account_id uuid, import_key text, fills jsonb)
        where fills is not null and import_key is not null
      )
      insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
      select ${this.userId}, t.id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
      from input i
      join trades t on t.user_id = ${this.userId} and t.account_id = i.account_id and t.import_key = i.import_key
      cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
      where not exists (select 1 from trade_fills x where x.user_id = ${this.userId} and x.trade_id = t.id)
      returning trade_id
    `,
    );
    const ids = new Set(rows.map((r) => r.trade_id));
    this.measure(ids);
    return ids.size;
  }

  /**
   * Fills for trades already stored ([{ trade_id, fills }] as JSON, or as records): each such trade that has no fills
   * yet gets them; one that has fills keeps its own (the most precise of two sources is the one kept). Returns how many
   * trades got fills.
   */
  async attachFills(fills: string | FillsByTrade): Promise<number> {
    await this.begin();
    const json =
      typeof fills === 'string'
        ? fills
        : JSON.stringify(fills.filter((e) => e.fills.length > 0).map((e) => ({ trade_id: e.tradeId, fills: toFillJson(e.fills) })));
    const rows = await queryRows<{ trade_id: string }>(
      this.tx,
      sql`
      with input as (select * from jsonb_to_recordset(${json}::jsonb) as r(trade_id uuid, fills jsonb))
      insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id)
      select ${this.userId}, i.trade_id, f.n, f.t, f.s, f.q, f.p, f.c, f.i
      from input i cross join lateral jsonb_to_recordset(i.fills) as f(${FILL_JSON_COLUMNS})
      where not exists (select 1 from trade_fills x where x.user_id = ${this.userId} and x.trade_id = i.trade_id)
      returning trade_id
    `,
    );
    const ids = new Set(rows.map((r) => r.trade_id));
    this.measure(ids);
    return ids.size;
  }

  /** The trade's fills become `fills` (none when empty). */
  async replaceFills(tradeId: string, fills: readonly FillRecord[]): Promise<void> {
    await this.begin();
    await this.tx.delete(tradeFills).where(and(eq(tradeFills.userId, this.userId), eq(tradeFills.tradeId, tradeId)));
    if (fills.length > 0) await this.attachFills([{ tradeId, fills }]);
    this.measure([tradeId]);
    // Fills are not a column of trades: the trade is logged as changed here (the position rules read its fills).
    await this.touch([tradeId]);
  }

  /** Changes one trade of the trader; false when they have no such trade. */
  async update(id: string, values: Partial<NewTradeRow>): Promise<boolean> {
    return (await this.updateMany([id], values)) > 0;
  }

  /** The same values on these trades of the trader; how many were theirs. */
  async updateMany(ids: readonly string[], values: Partial<NewTradeRow>): Promise<number> {
    if (ids.length === 0) return 0;
    await this.begin();
    const changed = await this.tx
      .update(trades)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(trades.userId, this.userId), sql`${trades.id} = any(${uuidArray(ids)})`))
      .returning({ id: trades.id });
    this.written += changed.length;
    if (Object.keys(values).some((key) => EXECUTION_FIELDS.has(key as keyof NewTradeRow))) this.measure(changed.map((r) => r.id));
    return changed.length;
  }

  /**
   * Each trade its own values, one statement for all: `rows` are JSON records with an `id` and the columns `set` names
   * (a SQL assignment list reading them as `r.<column>`); `where` may narrow further (the row as read). Returns the ids
   * changed.
   */
  async updateEach(rows: readonly Record<string, unknown>[], record: string, set: SQL, where?: SQL): Promise<string[]> {
    if (rows.length === 0) return [];
    await this.begin();
    const changed = await queryRows<{ id: string }>(
      this.tx,
      sql`
      update trades t set ${set}, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${sql.raw(record)})
      where t.id = r.id and t.user_id = ${this.userId} ${where ? sql`and ${where}` : sql``}
      returning t.id
    `,
    );
    this.written += changed.length;
    return changed.map((r) => r.id);
  }

  /** Deletes these trades of the trader (their fills and ticks go with them); how many were theirs. */
  async remove(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    await this.begin();
    const removed = await this.tx
      .delete(trades)
      .where(and(eq(trades.userId, this.userId), sql`${trades.id} = any(${uuidArray(ids)})`))
      .returning({ id: trades.id });
    this.written += removed.length;
    return removed.length;
  }

  /**
   * A trade's playbook and the rules of it the trade ticked. The reports' copy holds both, and the trades' triggers do
   * not watch them: the trade is logged as changed here.
   */
  async setPlaybook(tradeId: string, playbookId: string | null, ticked: readonly string[]): Promise<void> {
    await this.begin();
    await this.tx
      .update(trades)
      .set({ playbookId, updatedAt: sql`now()` })
      .where(and(eq(trades.userId, this.userId), eq(trades.id, tradeId)));
    await this.tx.delete(tradeRuleChecks).where(and(eq(tradeRuleChecks.userId, this.userId), eq(tradeRuleChecks.tradeId, tradeId)));
    if (ticked.length > 0) await this.tx.insert(tradeRuleChecks).values(ticked.map((ruleId) => ({ userId: this.userId, tradeId, ruleId })));
    await this.touch([tradeId]);
  }

  /** A playbook for many trades at once (an import's); ticks of another playbook's rules go with their rules. */
  async assignPlaybook(tradeIds: readonly string[], playbookId: string): Promise<void> {
    if (tradeIds.length === 0) return;
    await this.begin();
    await this.tx
      .update(trades)
      .set({ playbookId })
      .where(and(eq(trades.userId, this.userId), sql`${trades.id} = any(${uuidArray(tradeIds)})`));
    await this.touch(tradeIds);
  }

  /**
   * One playbook (or none) for many trades at once, as a trade's page sets it without ticks: their ticked rules, which
   * were rules of the playbook they had, are cleared.
   */
  async setPlaybookMany(tradeIds: readonly string[], playbookId: string | null): Promise<void> {
    if (tradeIds.length === 0) return;
    await this.begin();
    const ids = uuidArray(tradeIds);
    await this.tx
      .update(trades)
      .set({ playbookId, updatedAt: sql`now()` })
      .where(and(eq(trades.userId, this.userId), sql`${trades.id} = any(${ids})`));
    await this.tx.delete(tradeRuleChecks).where(and(eq(tradeRuleChecks.userId, this.userId), sql`${tradeRuleChecks.tradeId} = any(${ids})`));
    await this.touch(tradeIds);
  }

  /**
   * Trades' ticked rules written back as they were (an undone bulk edit): each trade's ticks become those of `ruleIds`
   * that are still rules of its playbook.
   */
  async replaceTicks(entries: ReadonlyArray<{ tradeId: string; ruleIds: readonly string[] }>): Promise<void> {
    if (entries.length === 0) return;
    await this.begin();
    const ids = entries.map((e) => e.tradeId);
    await this.tx
      .delete(tradeRuleChecks)
      .where(and(eq(tradeRuleChecks.userId, this.userId), sql`${tradeRuleChecks.tradeId} = any(${uuidArray(ids)})`));
    const rows = entries.flatMap((e) => e.ruleIds.map((ruleId) => ({ trade_id: e.tradeId, rule_id: ruleId })));
    if (rows.length > 0) {
      await this.tx.execute(sql`
        insert into trade_rule_checks (user_id, trade_id, rule_id)
        select ${this.userId}, r.trade_id, r.rule_id from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(trade_id uuid, rule_id uuid)
        join trades t on t.id = r.trade_id and t.user_id = ${this.userId}
        join playbook_rules p on p.id = r.rule_id and p.user_id = ${this.userId} and p.playbook_id = t.playbook_id
        on conflict do nothing`);
    }
    await this.touch(ids);
  }

  /**
   * Trades changed in something the trades' triggers do not watch (their playbook, their ticked rules, a playbook's
   * rules removed or the playbook deleted): logged as changed, so that the reports' copy reads them again.
   */
  async touch(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.begin();
    // Their accounts' versions move too: the prop rules read the trades' fills.
    await this.tx.execute(sql`
      insert into pg_temp.pending_trade_writes (kind, user_id, trade_id, account_id)
      select 't', ${this.userId}, id, null from unnest(${uuidArray(ids)}) as id
      union all
      select distinct 'a', ${this.userId}, null::uuid, t.account_id from trades t
      where t.user_id = ${this.userId} and t.id = any(${uuidArray(ids)}) and t.account_id is not null`);
  }

  /**
   * The last step of every write, inside its transaction: the rollups, versions and change log, once for all it wrote
   * (flush_trade_writes), and the MAE and MFE of the trades whose execution changed.
   */
  async afterTradesWritten(): Promise<void> {
    if (!this.begun) return;
    // The touched days' rollups first (flush_trade_writes' own order: they take the trader's lock), a bounded number of
    // days a statement with other traders' reads in between: a 30,000-trade restore touches 750 days, all of them one
    // statement of a second or more before, however busy the embedded database's one connection was.
    for (;;) {
      const [batch] = await queryRows<{ n: number }>(
        this.tx,
        sql`
        with batch as (
          select distinct user_id, day from pg_temp.pending_trade_writes where kind = 'd' order by user_id, day
          limit ${ROLLUP_DAYS_PER_STATEMENT}
        ),
        done as (
          delete from pg_temp.pending_trade_writes p using batch b where p.kind = 'd' and p.user_id = b.user_id and p.day = b.day
        )
        select refresh_trade_day_rollups(array_agg(user_id), array_agg(day)), count(*)::int as n from batch`,
      );
      if (Number(batch?.n ?? 0) < ROLLUP_DAYS_PER_STATEMENT) break;
      await this.pause();
    }
    await this.tx.execute(sql`select flush_trade_writes()`);
    // Emptied by truncation rather than by the function's delete: the table lives as long as the connection (the
    // embedded database's one connection: the server's life), and the dead rows every write left in it were read again
    // by every later write's last step (10 MB of them after a few 30,000-trade restores and deletes).
    await this.tx.execute(sql`truncate pg_temp.pending_trade_writes`);
    const ids = [...this.measured];
    for (let i = 0; i < ids.length; i += 10_000) await recomputeExcursions(this.tx, this.userId, { ids: ids.slice(i, i + 10_000) });
    for (const [contract, { from, to }] of this.spans) await recomputeForContract(this.tx, this.userId, { contract, from, to });
  }

  /**
   * Once committed: the engine's copy of the trader's trades catches up before the write answers (the reports opened
   * next find it current), and after large writes the planner's statistics are refreshed (Database.noteTradesWritten).
   */
  async afterCommit(): Promise<void> {
    if (!this.begun) return;
    // A copy that fails to catch up is the next report's to bring up to date: the write itself is done.
    await Promise.all([
      this.database.noteTradesWritten(this.written),
      tradesCacheOf(this.database)
        .catchUp(this.userId)
        .catch(() => undefined),
    ]);
  }
}

/**
 * Runs `write` in one transaction as the trader, with the writer every write of trades goes through, then its last step
 * (TradeWriter.afterTradesWritten) in the same transaction and, once committed, what the read side must hear.
 */
export async function writeTrades<T>(database: Database, userId: string, write: (writer: TradeWriter) => Promise<T>): Promise<T> {
  let writer: TradeWriter | undefined;
  const result = await database.withUser(userId, async (tx) => {
    writer = new TradeWriter(tx, userId, database);
    const value = await write(writer);
    await writer.afterTradesWritten();
    return value;
  });
  await writer!.afterCommit();
  return result;
}
