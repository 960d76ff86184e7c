import { canonicalTimeZone } from '../../../contract/common';
import { headerKey, readHeaderRow, type ColumnMapping } from '../../../domain/importers';
import type { TradingDayRule } from '../../../domain/market-time';
import type { Database, Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { badRequest, HttpError } from '../../http/errors';
import type { SavedUpload } from '../../http/read-upload';
import { accountsRepo } from '../../core/accounts/repo';
import { getPreferences } from '../../core/preferences/repo';
import { decodeText } from '../../core/parse/convert';
import { feeSchedulesRepo, toFeeScheduleDto } from './fee-schedules';
import { parseInWorker, reuseKey, type ParseJob } from '../../core/parse/parse-pool';
import { storedTripsText, type FinishPlan, type ImportChunk, type Summary } from '../../core/parse/plan';
import { importsRepo } from './repo';
import { writeTrades, type TradeWriter } from '../../core/trades/write';
import type { ImportOutcome, ImportPreview } from '../../../contract/imports';
import type { ImportQuery, PreviewQuery } from './schemas';
import { playbooksRepo } from '../../core/playbooks/repo';

/**
 * Broker imports over HTTP. The browser sends the file as it is; everything is read again here with
 * the same pure parser the tests check field by field, so what is stored never depends on what a browser claims. The
 * parse runs in a worker thread (parse-pool.ts), so the server keeps answering other requests meanwhile. Then, here:
 * each account named in the file goes to the trading account the trader maps it to (remembered for the next file),
 * the account's fee schedule fills in costs the file does not have, and trades the account already holds, by key or
 * from another export of the same account, are counted as duplicates.
 */

export const ACCOUNT_NOT_FOUND_MESSAGE = 'account_id: Trading account not found';

type Parsed = Extract<Summary, { ok: true }>;

type FailureCode = Extract<Summary, { ok: false }>['code'];
/** Options the dialog never sends wrong: their failures name the field in the message ("format: ..."). */
const NAMED_OPTION: Partial<Record<FailureCode, string>> = { 'unknown-format-id': 'format', 'invalid-time-zone': 'time_zone' };

/**
 * The parse failed as a whole (empty, binary, not an array, unknown format...): a 400 with the parser's words, which
 * the dialog shows as they are. `fields` names what they are about: the file, the column mapping, or the option.
 */
function failure(result: Extract<Summary, { ok: false }>): HttpError {
  const option = NAMED_OPTION[result.code];
  const field = option ?? (result.code === 'invalid-mapping' ? 'mapping' : 'file');
  return badRequest(option ? `${option}: ${result.message}` : result.message, {
    code: result.code,
    fields: [{ field, message: result.message }],
    ...(result.headers && { headers: result.headers }),
  });
}

/** The header row's key (mapping.ts headerKey), read from the start of the upload before it goes to the worker. */
function headerKeyOf(head: Uint8Array): string {
  return headerKey(readHeaderRow(decodeText(head)));
}

/** Where the zone of a file's naive times came from: the dialog, the account's last import, or the trader's own. */
type TimeZoneSource = ImportPreview['time_zone_source'];

async function parse(
  db: Database,
  userId: string,
  upload: SavedUpload,
  query: { format?: string; time_zone?: string; browser_time_zone?: string; mapping?: ColumnMapping; account_id?: string },
): Promise<ParseJob & { summary: Parsed; headerKey: string; mappingRemembered: boolean; timeZoneSource: TimeZoneSource }> {
  const preferences = await getPreferences(db, userId);
  // A mapping the trader made for this header row before: used if no format recognises the file.
  const key = headerKeyOf(upload.head);
  const { remembered, accountZone } = await db.withUser(userId, async (tx) => ({
    remembered: query.mapping ? null : await importsRepo(tx, userId).mappingFor(key),
    accountZone: query.time_zone || !query.account_id ? null : ((await accountsRepo(tx, userId).find(query.account_id))?.importTimeZone ?? null),
  }));
  // Naive times in the file are read in the zone the trader chose in the dialog; else in the zone the account's last
  // import was read in (a re-import went back to New York); else the trader's own. Days follow the
  // trader's trading-day setting.
  const timeZone = query.time_zone ?? accountZone ?? preferences.timeZone;
  const timeZoneSource: TimeZoneSource = query.time_zone ? 'chosen' : accountZone ? 'account' : 'profile';
  const tradingDay = preferences.tradingDay as TradingDayRule;
  // If the file's times do not fit the chosen zone, the zones of the trader's computer and settings are tried first.
  // Only zones the database knows are proposed: the trader's choice of one comes back as the import's time_zone.
  const preferredTimeZones = [query.browser_time_zone, preferences.timeZone].flatMap((zone) => (zone ? (canonicalTimeZone(zone) ?? []) : []));
  const options = {
    timeZone,
    tradingDay,
    preferredTimeZones,
    ...(query.format !== undefined && { format: query.format }),
    ...(query.mapping && { mapping: query.mapping }),
    ...(remembered && { fallbackMapping: remembered }),
  };
  // Confirming a preview sends the same file with the same options: the worker still holds it parsed.
  const job = await parseInWorker(upload, options, { key: reuseKey(userId, upload.digest, options), userId });
  if (!job.summary.ok) throw failure(job.summary);
  const mappingRemembered = remembered !== null && job.summary.mapping !== null;
  return Object.assign(job as ParseJob & { summary: Parsed }, { headerKey: key, mappingRemembered, timeZoneSource });
}

const errorsOf = (issues: Parsed['issues']) => issues.filter((i) => i.severity === 'error');

/** 'numeric field overflow' and friends: a value in the file the columns cannot hold. */
function isValueOutOfRange(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '22003' || code === '22008' || code === '22007') return true;
  }
  return false;
}

/** How a file account found its trading account: chosen in the picker or the mapping, remembered, or by its name. */
type TargetSource = 'chosen' | 'remembered' | 'name' | 'skipped' | null;

interface Target {
  accountId: string | null;
  source: TargetSource;
  /** The account remembered (or named) for it, which the dialog preselects for a one-account file. */
  suggested: string | null;
}

/**
 * Where each account named in the file goes. The trader's mapping wins ('' leaves the file
 * account out); a file with one account (or none) goes into the account picked in the dialog; otherwise the account
 * remembered from an earlier import, or the trading account with the same name. What is left has no target yet.
 */
async function resolveTargets(tx: Tx, userId: string, names: string[], query: { account_id?: string; account_map?: Record<string, string> }) {
  const accounts = await accountsRepo(tx, userId).list();
  const owned = new Set(accounts.map((a) => a.id));
  const map = query.account_map ?? {};
  for (const [fileAccount, accountId] of Object.entries(map)) {
    if (accountId !== '' && !owned.has(accountId)) {
      throw badRequest(`account_map: Trading account not found for '${fileAccount.slice(0, 100)}'`, { code: 'account-not-found' });
    }
  }
  const links = await importsRepo(tx, userId).links(names.filter(Boolean));
  const byName = new Map(accounts.map((a) => [a.name.trim().toLowerCase(), a.id]));
  const single = names.length <= 1;
  const targets = new Map<string, Target>();
  for (const name of names) {
    const remembered = links.get(name) ?? null;
    const named = name ? (byName.get(name.trim().toLowerCase()) ?? null) : null;
    const suggested = remembered ?? named;
    if (Object.prototype.hasOwnProperty.call(map, name))
      targets.set(name, { accountId: map[name] || null, source: map[name] ? 'chosen' : 'skipped', suggested });
    else if (single) targets.set(name, { accountId: query.account_id ?? null, source: query.account_id ? 'chosen' : null, suggested });
    else if (remembered) targets.set(name, { accountId: remembered, source: 'remembered', suggested });
    else if (named) targets.set(name, { accountId: named, source: 'name', suggested });
    else targets.set(name, { accountId: null, source: null, suggested });
  }
  return targets;
}

/** Formats whose times may have minutes only: their stored times with :00 seconds compare to the minute. */
const MINUTE_FORMATS = new Set(['ninjatrader-trades', 'thinkorswim-statement', 'mapped']);

/**
 * What the database tells the finishing half (plan.ts): each file account's trading account, the fee schedules, and
 * per account the round trips it already holds in the file's time range and, for the preview,
 * the keys it holds among the file's.
 */
async function planFor(tx: Tx, db: Database, userId: string, summary: Parsed, targets: Map<string, Target>, withKeys: boolean): Promise<FinishPlan> {
  const plan: FinishPlan = { targets: {}, schedules: {}, knownKeys: {}, stored: {} };
  const ranges = new Map<string, [number, number]>();
  const keysByAccount = new Map<string, string[]>();
  summary.fileAccounts.forEach((name, index) => {
    const target = targets.get(name)!;
    plan.targets[name] = target.source === 'skipped' ? '' : target.accountId;
    if (!target.accountId || target.source === 'skipped') return;
    const range = summary.ranges[index];
    if (range) {
      const known = ranges.get(target.accountId);
      ranges.set(target.accountId, known ? [Math.min(known[0], range[0]), Math.max(known[1], range[1])] : [range[0], range[1]]);
    }
    if (!keysByAccount.has(target.accountId)) keysByAccount.set(target.accountId, []);
  });
  if (withKeys) {
    summary.keys.forEach((key, i) => {
      const target = targets.get(summary.fileAccounts[summary.accountOf[i]!]!)!;
      if (target.accountId && target.source !== 'skipped') keysByAccount.get(target.accountId)!.push(key);
    });
  }
  const accountIds = [...keysByAccount.keys()];
  if (!summary.costsInFile) {
    const schedules = await feeSchedulesRepo(tx, userId).forAccounts(accountIds);
    for (const [accountId, { schedule }] of schedules) plan.schedules[accountId] = schedule;
  }
  const repo = importsRepo(tx, userId);
  for (const accountId of accountIds) {
    if (withKeys) plan.knownKeys[accountId] = [...(await repo.existingKeys(accountId, keysByAccount.get(accountId)!, db.batch))];
    const range = ranges.get(accountId);
    if (!range) continue;
    const stored = await repo.roundTripsBetween(accountId, range[0], range[1]);
    if (stored.length === 0) continue;
    const seconds = (iso: string | null) => (iso === null ? 0 : Math.floor(Date.parse(iso) / 1000) % 60);
    plan.stored[accountId] = storedTripsText(
      stored.map((s) => ({
        contract: s.contract,
        side: s.side,
        quantity: s.quantity,
        entryPrice: s.entryPrice,
        exitPrice: s.exitPrice,
        entryTime: s.entryTime === null ? null : new Date(s.entryTime).toISOString(),
        exitTime: s.exitTime === null ? null : new Date(s.exitTime).toISOString(),
        minutePrecision: MINUTE_FORMATS.has(s.importSource ?? '') && seconds(s.entryTime) === 0 && seconds(s.exitTime) === 0,
        id: s.id,
        hasFills: s.hasFills === true || (s.hasFills as unknown) === 't',
      })),
    );
  }
  return plan;
}

/**
 * Inserts the chunks the worker sends one after another, in the order they come, while the worker builds the next
 * (the import's speed). After a failed insert the rest are skipped. stop() sends no more and waits for
 * the insert under way; settled() waits for all, then gives the rows inserted per trading account and how many
 * trades already stored got their fills (a re-import of a file imported before fills were kept), or the
 * failure.
 */
function insertInOrder(writer: TradeWriter, options: { setup?: string; playbookId?: string }) {
  const added = new Map<string, number>();
  let fillsAttached = 0;
  let failure: { error: unknown } | null = null;
  let stopped = false;
  let queue = Promise.resolve();
  return {
    add: (chunk: ImportChunk) => {
      queue = queue.then(async () => {
        if (failure || stopped) return;
        try {
          // Statements are kept small on the embedded database: other requests run between them.
          await writer.pause();
          if (chunk.attach) {
            fillsAttached += await writer.attachFills(chunk.json);
            return;
          }
          const inserted = await writer.insertImportChunk(chunk.json, options);
          added.set(chunk.accountId, (added.get(chunk.accountId) ?? 0) + inserted);
          // Some trades were already stored by key: those without fills get this file's.
          if (inserted < chunk.count) fillsAttached += await writer.attachByImportKey(chunk.json);
        } catch (error) {
          failure = { error };
        }
      });
    },
    stop: () => {
      stopped = true;
      return queue;
    },
    settled: async () => {
      await queue;
      if (failure) throw failure.error;
      return { added, fillsAttached };
    },
  };
}

export const importsService = {
  /**
   * What confirming would do: the detected format, per account of the file the trading account it goes into and its
   * counts, the trades to be created (minus those the accounts already hold), duplicates, open positions, every
   * unreadable row with its number, ignored rows, the time-zone check, the fee schedules applied, totals. Writes
   * nothing.
   */
  async preview(db: Database, userId: string, upload: SavedUpload, query: PreviewQuery): Promise<ImportPreview> {
    if (query.account_id) await assertAccount(db, userId, query.account_id);
    const job = await parse(db, userId, upload, query);
    try {
      const summary = job.summary;
      const { targets, plan } = await db.withUser(userId, async (tx) => {
        const targets = await resolveTargets(tx, userId, summary.fileAccounts, query);
        return { targets, plan: await planFor(tx, db, userId, summary, targets, true) };
      });
      const done = await job.preview(plan, query.limit);
      const errors = errorsOf(summary.issues);
      return {
        format: summary.format,
        detected_format: summary.detectedFormat,
        time_zone: summary.timeZone,
        time_zone_source: job.timeZoneSource,
        account_id: query.account_id ?? null,
        row_count: summary.rowCount,
        file_accounts: done.fileAccounts.map((f) => {
          const target = targets.get(f.name)!;
          return {
            ...f,
            account_id: target.source === 'skipped' ? null : target.accountId,
            source: target.source,
            suggested_account_id: target.suggested,
          };
        }),
        total_trades: summary.tradeCount,
        new_trades: done.newTrades,
        duplicates: done.duplicates,
        duplicates_from_other_exports: done.duplicatesFromOtherExports,
        unmapped_trades: done.unmapped,
        skipped_trades: done.skipped,
        trades: done.shown,
        trades_truncated: done.truncated,
        open_positions: summary.openPositions,
        time_zone_check: summary.timeZoneCheck,
        issues: summary.issues,
        unreadable_rows: errors.length,
        ignored: summary.ignored,
        costs_in_file: summary.costsInFile,
        headers: summary.headers,
        mapping: summary.mapping,
        mapping_remembered: job.mappingRemembered,
        fee_schedules: summary.costsInFile
          ? []
          : await db.withUser(userId, async (tx) =>
              [...(await feeSchedulesRepo(tx, userId).forAccounts(Object.keys(plan.schedules)))].map(([accountId, { schedule, stored }]) =>
                toFeeScheduleDto(accountId, schedule, stored),
              ),
            ),
        totals: done.totals,
      };
    } finally {
      job.release();
    }
  },

  /**
   * Inserts the file's trades in ONE transaction, each into the trading account its file account goes into: trades
   * an account already holds (same import key, or the same round trip from another export) are skipped, and any
   * failure leaves every account as it was. A file with unreadable rows is refused unless the trader confirmed
   * skipping them; a file account without a trading account is refused by name. The mapping is remembered.
   */
  async import(db: Database, userId: string, upload: SavedUpload, query: ImportQuery): Promise<Omit<ImportOutcome, 'prop_warnings'>> {
    await assertAccount(db, userId, query.account_id);
    const job = await parse(db, userId, upload, query);
    try {
      const summary = job.summary;
      const errors = errorsOf(summary.issues);
      if (errors.length > 0 && !query.skip_unreadable) {
        throw new HttpError(
          422,
          `${errors.length} ${errors.length === 1 ? 'row' : 'rows'} of the file could not be read (first: row ${errors[0]!.row}: ${errors[0]!.message}). Review them in the preview, then confirm to import the other trades.`,
          { code: 'unreadable-rows', unreadable_rows: errors.length, issues: errors.slice(0, 1000) },
        );
      }
      let outcome: {
        imported: number;
        duplicates: number;
        skipped: number;
        accounts: Array<{ account_id: string; imported: number; duplicates: number }>;
        fillsAttached: number;
      };
      try {
        outcome = await writeTrades(db, userId, async (writer) => {
          const { tx } = writer;
          // Checked again inside the transaction: the account cannot be deleted between the check and the insert.
          if (!(await accountsRepo(tx, userId).exists(query.account_id))) throw badRequest(ACCOUNT_NOT_FOUND_MESSAGE);
          const targets = await resolveTargets(tx, userId, summary.fileAccounts, query);
          const unmapped = summary.fileAccounts.filter((name) => targets.get(name)!.accountId === null && targets.get(name)!.source !== 'skipped');
          if (unmapped.length > 0) {
            throw badRequest(`Choose a trading account for ${unmapped.map((n) => `'${n}'`).join(', ')} (or leave it out)`, {
              code: 'account-unmapped',
              file_accounts: unmapped,
            });
          }
          await lockTargets(tx, targets);
          const plan = await planFor(tx, db, userId, summary, targets, false);
          const repo = importsRepo(tx, userId);
          // The dialog's playbook must be the trader's (checked in the transaction: it cannot vanish before the insert).
          if (query.playbook_id && (await playbooksRepo(tx, userId).list(query.playbook_id)).length === 0)
            throw badRequest('playbook_id: Playbook not found');
          const inserting = insertInOrder(writer, { setup: query.setup, playbookId: query.playbook_id });
          const done = await job.import(plan, userId, db.batch.trades, inserting.add).catch(async (error: unknown) => {
            // The insert under way ends before the transaction rolls back.
            await inserting.stop();
            throw error;
          });
          // Trades whose key the account holds were skipped by the unique index (ON CONFLICT DO NOTHING).
          const { added, fillsAttached } = await inserting.settled();
          const accounts = done.accounts.map((group) => {
            const imported = added.get(group.accountId) ?? 0;
            return { account_id: group.accountId, imported, duplicates: group.trades - imported };
          });
          const imported = accounts.reduce((sum, a) => sum + a.imported, 0);
          const duplicates = accounts.reduce((sum, a) => sum + a.duplicates, 0);
          // The trades' MAE and MFE, where bars of their contracts exist, in the same transaction.
          for (const span of summary.contracts) writer.measureSpan(span.contract, span.from, span.to);
          // A mapping the trader chose for this header row is remembered for the next file.
          if (summary.mapping && query.mapping) await repo.rememberMapping(job.headerKey, summary.mapping);
          // So is the zone the file's times were read in, for each account that received them.
          await accountsRepo(tx, userId).rememberImportTimeZone([query.account_id, ...accounts.map((a) => a.account_id)], summary.timeZone);
          await repo.remember(
            summary.fileAccounts
              .map((name) => ({ fileAccount: name, target: targets.get(name)! }))
              .filter(({ fileAccount, target }) => fileAccount !== '' && target.accountId !== null && target.source !== 'skipped')
              .map(({ fileAccount, target }) => ({ fileAccount, accountId: target.accountId! })),
          );
          return { imported, duplicates, skipped: done.skipped, accounts, fillsAttached };
        });
      } catch (error) {
        if (isValueOutOfRange(error)) {
          throw badRequest('Failed to import trades: a price, quantity or amount in the file is too large to store. Nothing was imported.', {
            code: 'value-out-of-range',
          });
        }
        throw error;
      }
      // Committed: the parsed file is freed now rather than kept for a confirmation that will not come.
      job.finish();
      return {
        imported: outcome.imported,
        duplicates: outcome.duplicates,
        total_trades: summary.tradeCount,
        skipped_trades: outcome.skipped,
        open_positions: summary.openPositions.length,
        skipped_rows: errors.length,
        format: summary.format,
        time_zone: summary.timeZone,
        account_id: query.account_id,
        accounts: outcome.accounts,
        fills_attached: outcome.fillsAttached,
      };
    } finally {
      job.release();
    }
  },
};

/**
 * One import at a time into a trading account, from the duplicate check to the commit: two exports
 * of the same fills (Orders and Performance) imported at the same moment each found none of the other's trades
 * stored yet, and the account got every trade twice. The next import into the account waits, then reads what this
 * one stored. The accounts are locked in one order, so two files that share accounts cannot wait on each other.
 */
async function lockTargets(tx: Tx, targets: Map<string, Target>) {
  const accountIds = new Set<string>();
  for (const target of targets.values()) if (target.accountId && target.source !== 'skipped') accountIds.add(target.accountId);
  for (const accountId of [...accountIds].sort()) await lockFor(tx, 'account_imports', accountId);
}

async function assertAccount(db: Database, userId: string, accountId: string) {
  const exists = await db.withUser(userId, (tx) => accountsRepo(tx, userId).exists(accountId));
  if (!exists) throw badRequest(ACCOUNT_NOT_FOUND_MESSAGE, { code: 'account-not-found' });
}
