import {
  matchStoredRoundTrips,
  resultOf,
  retagForNet,
  scheduledCommission,
  type FeeSchedule,
  type ImportedTrade,
  type ImportOptions,
  type RoundTrip,
  type TextSource,
} from '../../../domain/importers';
import { marketKeyOf } from '../../../domain/market';
import { centsToDecimalString, type Cents } from '../../../domain/money';
import { parseFile, toImportTrade, type ImportTrade, type ParsedFile } from './convert';

/**
 * The two halves of an import that run in the parse worker (the import's speed). The
 * request thread only reads the database and passes small values and finished strings along:
 *
 *   1. summarize: the file's text -> the parsed file, kept in the worker, and a summary: format, issues, accounts of
 *      the file, each trade's import key and account, the entry-time range per account.
 *   2. finish: with what the database said (the trading account of each file account, fee schedules, keys and round
 *      trips the accounts already hold), either the preview (counts, totals, the first trades) or the INSERT
 *      parameters themselves, as JSON text, so 36,000 trades never become objects on the request thread.
 */

type Parsed = Extract<ParsedFile, { ok: true }>;

export type Summary =
  | (Omit<Parsed, 'trades'> & {
      ok: true;
      tradeCount: number;
      /** Accounts named in the file, in order of first appearance ('' when the file names none). */
      fileAccounts: string[];
      /** Per trade: its import key and the index of its file account. */
      keys: string[];
      accountOf: number[];
      /** Per file account: earliest and latest entry time (epoch ms), null when no trade has one. */
      ranges: Array<[number, number] | null>;
      /** Per contract (the bars' key): the earliest entry and latest exit, for the MAE and MFE of the trades. */
      contracts: Array<{ contract: string; from: number; to: number }>;
    })
  | Extract<ParsedFile, { ok: false }>;

export function summarize(text: string | TextSource, options: ImportOptions, tidy?: () => void): { summary: Summary; parsed: Parsed | null } {
  const parsed = parseFile(text, options, tidy);
  if (!parsed.ok) return { summary: parsed, parsed: null };
  const fileAccounts: string[] = [];
  const index = new Map<string, number>();
  const accountOf: number[] = [];
  const keys: string[] = [];
  const ranges: Array<[number, number] | null> = [];
  const spans = new Map<string, { contract: string; from: number; to: number }>();
  for (const trade of parsed.trades) {
    if (trade.entryTime !== null && trade.exitTime !== null) {
      // The market's key as the stored trade will have it (toTradeRow: an unnamed symbol is stored as 'Unknown').
      const contract = marketKeyOf(trade.contract, trade.symbol || 'Unknown');
      const entry = Date.parse(trade.entryTime);
      const exit = Date.parse(trade.exitTime);
      const span = spans.get(contract);
      if (!span) spans.set(contract, { contract, from: entry, to: exit });
      else {
        if (entry < span.from) span.from = entry;
        if (exit > span.to) span.to = exit;
      }
    }
    let at = index.get(trade.account);
    if (at === undefined) {
      at = fileAccounts.length;
      index.set(trade.account, at);
      fileAccounts.push(trade.account);
      ranges.push(null);
    }
    accountOf.push(at);
    keys.push(trade.importKey);
    if (trade.entryTime !== null) {
      const entry = Date.parse(trade.entryTime);
      const range = ranges[at];
      if (!range) ranges[at] = [entry, entry];
      else {
        if (entry < range[0]) range[0] = entry;
        if (entry > range[1]) range[1] = entry;
      }
    }
  }
  const { trades, ...rest } = parsed;
  return { summary: { ...rest, tradeCount: trades.length, fileAccounts, keys, accountOf, ranges, contracts: [...spans.values()] }, parsed };
}

/** '' leaves the file account out; null: it has no trading account yet. */
export type Targets = Record<string, string | null>;

export interface FinishPlan {
  targets: Targets;
  /** Fee schedules of the target accounts, applied when the file has no costs. */
  schedules: Record<string, FeeSchedule>;
  /** Per trading account: import keys it already holds among the file's (the preview looks them up). */
  knownKeys: Record<string, string[]>;
  /** Per trading account: its round trips in the file's time range, as storedTripsText() lines. */
  stored: Record<string, string>;
}

/** Round trips as one line each (a string crosses threads at once; 36,000 small objects did not). */
export function storedTripsText(trips: RoundTrip[]): string {
  return trips
    .map((t) =>
      [
        t.contract ?? '',
        t.side ?? '',
        t.quantity ?? '',
        t.entryPrice ?? '',
        t.exitPrice ?? '',
        t.entryTime ?? '',
        t.exitTime ?? '',
        t.minutePrecision ? 1 : 0,
        t.id ?? '',
        t.hasFills ? 1 : 0,
      ].join('\t'),
    )
    .join('\n');
}

function readStoredTrips(text: string | undefined): RoundTrip[] {
  if (!text) return [];
  return text.split('\n').map((line) => {
    const [contract, side, quantity, entryPrice, exitPrice, entryTime, exitTime, minute, id, hasFills] = line.split('\t');
    const orNull = (value: string | undefined) => (value ? value : null);
    const trip: RoundTrip = {
      contract: orNull(contract),
      side: orNull(side),
      quantity: orNull(quantity),
      entryPrice: orNull(entryPrice),
      exitPrice: orNull(exitPrice),
      entryTime: orNull(entryTime),
      exitTime: orNull(exitTime),
      minutePrecision: minute === '1',
      hasFills: hasFills === '1',
    };
    if (id) trip.id = id;
    return trip;
  });
}

const asRoundTrip =
  (minutePrecision: boolean) =>
  (t: ImportTrade): RoundTrip => ({
    contract: t.contract,
    side: t.side,
    quantity: t.quantity,
    entryPrice: t.entry_price,
    exitPrice: t.exit_price,
    entryTime: t.entry_time,
    exitTime: t.exit_time,
    minutePrecision,
  });

/** The commission a fee schedule gives a trade of the file; null where it does not apply (the file's stays). */
function scheduledCommissionOf(trade: ImportedTrade, schedule: FeeSchedule): Cents | null {
  return scheduledCommission(schedule, trade.contract || trade.symbol, trade.quantity);
}

/** An import's record with the commission a schedule gave it, and its net, result and tags. */
function withScheduledCommission(trade: ImportTrade, commission: Cents): ImportTrade {
  const net = trade.gross_cents - commission;
  return {
    ...trade,
    commission_cents: commission,
    net_cents: net,
    commission: centsToDecimalString(commission),
    pnl: centsToDecimalString(net),
    status: resultOf(net),
    tags: retagForNet(trade.tags, { netPnl: net, symbol: trade.symbol, session: trade.period, side: trade.side }),
    commission_source: 'schedule',
  };
}

/** A number of trades and their summed cents, as the preview's totals show them. */
function totalsOf(trades: number, gross: Cents, commission: Cents) {
  return {
    trades,
    gross_pnl: centsToDecimalString(gross),
    commission: centsToDecimalString(commission),
    net_pnl: centsToDecimalString(gross - commission),
  };
}

interface Sorted {
  /**
   * Trades going into each trading account, duplicates apart, as the file has them: `priced` makes a trade the record
   * stored, with the account's fee schedule applied (when the file has no costs), so the import prices each chunk as it
   * builds it; `commissionOf` gives that commission alone, for the preview's totals.
   */
  groups: Map<
    string,
    {
      fresh: ImportedTrade[];
      byKey: number;
      byContent: number;
      priced: (trade: ImportedTrade) => ImportTrade;
      commissionOf: (trade: ImportedTrade) => Cents;
      /** Trades found stored from another export that have no fills yet, with this file's fills for them. */
      attach: Array<{ trade_id: string; fills: NonNullable<ImportTrade['fill_rows']> }>;
    }
  >;
  unmapped: ImportedTrade[];
  skipped: ImportedTrade[];
}

const asFiled = (trade: ImportedTrade): Cents => trade.commission;

/** Where each trade goes, what it costs, and which ones the accounts already hold. */
function sort(parsed: Parsed, plan: FinishPlan, checkKeys: boolean): Sorted {
  const lists = new Map<string, ImportedTrade[]>();
  const unmapped: ImportedTrade[] = [];
  const skipped: ImportedTrade[] = [];
  for (const trade of parsed.trades) {
    const target = plan.targets[trade.account];
    if (target === '') skipped.push(trade);
    else if (target === null || target === undefined) unmapped.push(trade);
    else {
      let list = lists.get(target);
      if (!list) lists.set(target, (list = []));
      list.push(trade);
    }
  }
  const groups: Sorted['groups'] = new Map();
  for (const [accountId, list] of lists) {
    const schedule = parsed.costsInFile ? undefined : plan.schedules[accountId];
    const priced = schedule
      ? (trade: ImportedTrade) => {
          const commission = scheduledCommissionOf(trade, schedule);
          return commission === null ? toImportTrade(trade) : withScheduledCommission(toImportTrade(trade), commission);
        }
      : toImportTrade;
    const commissionOf = schedule ? (trade: ImportedTrade) => scheduledCommissionOf(trade, schedule) ?? trade.commission : asFiled;
    const known = new Set(plan.knownKeys[accountId] ?? []);
    const stored = readStoredTrips(plan.stored[accountId]);
    const byKey = new Set<number>();
    if (checkKeys) list.forEach((t, i) => known.has(t.importKey) && byKey.add(i));
    if (byKey.size === 0 && stored.length === 0) {
      groups.set(accountId, { fresh: list, byKey: 0, byContent: 0, priced, commissionOf, attach: [] });
      continue;
    }
    // A stored trip answers for one trade at most: the account's trades of this very file (same keys) are not
    // matched again by content.
    const rest = list.map((t, i) => ({ t, i })).filter(({ i }) => !byKey.has(i));
    const byContent = new Set<number>();
    const attach: Array<{ trade_id: string; fills: NonNullable<ImportTrade['fill_rows']> }> = [];
    if (stored.length > 0) {
      const asTrip = asRoundTrip(parsed.minutePrecision);
      for (const [index, trip] of matchStoredRoundTrips(
        rest.map(({ t }) => asTrip(toImportTrade(t))),
        stored,
      )) {
        const trade = rest[index]!;
        byContent.add(trade.i);
        if (!trip.id || trip.hasFills) continue;
        const fills = toImportTrade(trade.t).fill_rows;
        if (fills) attach.push({ trade_id: trip.id, fills });
      }
    }
    groups.set(accountId, {
      fresh: list.filter((_, i) => !byKey.has(i) && !byContent.has(i)),
      byKey: byKey.size,
      byContent: byContent.size,
      priced,
      commissionOf,
      attach,
    });
  }
  return { groups, unmapped, skipped };
}

/** A trade as the preview lists it: its fills are stored, not shown there. */
function shown(trade: ImportTrade): Omit<ImportTrade, 'fill_rows'> {
  const { fill_rows: _fills, ...rest } = trade;
  return rest;
}

/** A new trade of the preview: the parsed trade as it is, where it goes and what it costs there. */
interface Fresh {
  trade: ImportedTrade;
  accountId: string | null;
  priced: (trade: ImportedTrade) => ImportTrade;
  gross: Cents;
  commission: Cents;
}

/**
 * What the preview shows, from the parsed file and the database's answers. Only the trades shown are made records:
 * the counts and totals need only their cents (a record of every trade held the file's trades twice over at once).
 */
export function finishPreview(parsed: Parsed, plan: FinishPlan, limit: number) {
  const { groups, unmapped, skipped } = sort(parsed, plan, true);
  const fresh: Fresh[] = [];
  let byKey = 0;
  let byContent = 0;
  for (const [accountId, group] of groups) {
    for (const trade of group.fresh) {
      fresh.push({ trade, accountId, priced: group.priced, gross: trade.grossPnl, commission: group.commissionOf(trade) });
    }
    byKey += group.byKey;
    byContent += group.byContent;
  }
  // Trades of file accounts without a trading account yet are new too: they wait for the trader's choice.
  for (const trade of unmapped) fresh.push({ trade, accountId: null, priced: toImportTrade, gross: trade.grossPnl, commission: trade.commission });
  const order = (t: ImportedTrade) => t.entryTime ?? t.tradeDate!;
  fresh.sort((a, b) => order(a.trade).localeCompare(order(b.trade)));
  const perFileAccount = new Map<string, { trades: number; gross: Cents; commission: Cents }>();
  let gross: Cents = 0;
  let commission: Cents = 0;
  for (const f of fresh) {
    let sums = perFileAccount.get(f.trade.account);
    if (!sums) perFileAccount.set(f.trade.account, (sums = { trades: 0, gross: 0, commission: 0 }));
    sums.trades++;
    sums.gross += f.gross;
    sums.commission += f.commission;
    gross += f.gross;
    commission += f.commission;
  }
  const counts = new Map<string, number>();
  for (const t of parsed.trades) counts.set(t.account, (counts.get(t.account) ?? 0) + 1);
  return {
    fileAccounts: [...counts].map(([name, trades]) => {
      const sums = perFileAccount.get(name) ?? { trades: 0, gross: 0, commission: 0 };
      return { name, trades, new_trades: sums.trades, totals: totalsOf(sums.trades, sums.gross, sums.commission) };
    }),
    newTrades: fresh.length,
    duplicates: byKey + byContent,
    duplicatesFromOtherExports: byContent,
    unmapped: unmapped.length,
    skipped: skipped.length,
    shown: fresh.slice(0, limit).map((f) => ({ ...shown(f.priced(f.trade)), account_id: f.accountId })),
    truncated: fresh.length > limit,
    totals: totalsOf(fresh.length, gross, commission),
  };
}

/**
 * One INSERT parameter: a JSON array of `count` records for one trading account, their fills inside them; or (`attach`)
 * the fills of trades the account holds from another export without fills, as [{ trade_id, fills }].
 */
export type ImportChunk = { accountId: string; json: string; count: number; attach?: false } | { accountId: string; json: string; attach: true };

/** Per trading account, its trades in the file (duplicates from another export included); the file accounts left over. */
export interface ImportDone {
  accounts: Array<{ accountId: string; trades: number; byContent: number }>;
  unmapped: string[];
  skipped: number;
}

/**
 * The INSERT parameters: per trading account, JSON arrays of `chunk` records as jsonb_to_recordset reads them
 * (repo.ts), without the trades the account holds from another export. Keys it already holds are left to the
 * unique index (ON CONFLICT DO NOTHING). Each chunk is yielded as soon as it is built, so the request thread inserts
 * one while the worker builds the next (the import's speed).
 */
export function* finishImport(parsed: Parsed, plan: FinishPlan, userId: string, chunk: number): Generator<ImportChunk, ImportDone> {
  const { groups, unmapped, skipped } = sort(parsed, plan, false);
  const accounts: ImportDone['accounts'] = [];
  for (const [accountId, group] of groups) {
    for (let i = 0; i < group.fresh.length; i += chunk) {
      const records = group.fresh.slice(i, i + chunk).map((t, k) => toRecord(group.priced(t), userId, accountId, parsed.format.id, i + k));
      yield { accountId, json: JSON.stringify(records), count: records.length };
    }
    for (let i = 0; i < group.attach.length; i += chunk) yield { accountId, json: JSON.stringify(group.attach.slice(i, i + chunk)), attach: true };
    accounts.push({ accountId, trades: group.fresh.length + group.byContent, byContent: group.byContent });
  }
  return { accounts, unmapped: [...new Set(unmapped.map((t) => t.account))], skipped: skipped.length };
}

/**
 * The columns as jsonb_to_recordset reads them (snake_case names, decimals as strings, tags as a JSON array). `seq`,
 * the trade's place in the file, spaces the creation times a microsecond apart, so that trades without times (a
 * daily P&L sheet) keep the file's order in the trading order instead of falling back to their random ids.
 */
function toRecord(t: ImportTrade, userId: string, accountId: string, source: string, seq: number) {
  return {
    seq,
    user_id: userId,
    account_id: accountId,
    trade_date: t.trade_date,
    day_of_week: t.day_of_week,
    symbol: t.symbol,
    period: t.period,
    trade_type: t.trade_type,
    status: t.status,
    pnl: t.pnl,
    commission: t.commission,
    link: t.link,
    notes: t.notes,
    tags: t.tags,
    side: t.side,
    contract: t.contract,
    entry_time: t.entry_time,
    exit_time: t.exit_time,
    entry_price: t.entry_price,
    exit_price: t.exit_price,
    quantity: t.quantity,
    gross_pnl: t.gross_pnl,
    import_source: source,
    import_key: t.import_key,
    commission_source: t.commission_source,
    fills: t.fill_rows,
  };
}
