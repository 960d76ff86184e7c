/**
 * Broker imports, the pure part. For the server and the import dialog:
 *
 *   parseImport(text, { timeZone, format?, marketTimeZone?, maxChars? }) -> ImportPreview | ImportFailure
 *
 * reads CSV (any format in registry.ts, detected from the header row) or the Trade Log's JSON backup, rebuilds round
 * trips by FIFO (domain/fills/build-trades.ts) and returns the trades to insert, each with a stable `importKey`, the
 * open positions
 * (never imported), every unreadable row with its number, and totals. `listFormats()` feeds the Trade Import Guide.
 * Money is integer cents; prices and quantities are Decimal (JSON.stringify prints them as strings).
 */
import { centsToDecimalString, type Cents } from '../money';
import { buildTrades } from '../fills/build-trades';
import { readCsvRows, readOnce, sharedText, takeText, textLength, textSource, textStart, type TextSource } from './csv';
export type { TextSource } from './csv';
import { contentKeyMaterial, decorateTrade, type DecorateOptions, type TradeCore } from '../fills/decorate';
import { parseJsonBackup } from './formats/json-backup';
import { ImportKeyAllocator } from '../fills/import-key';
import { parseInstrument, pointValueOf } from '../instruments';
import { DEFAULT_TRADING_DAY_RULE, MARKET_TIME_ZONE, type TradingDayRule } from '../market-time';
import { isValidTimeZone } from '../dates/clock';
import { mappedImporter, mappingProblem, type ColumnMapping } from './mapping';
import { detectImporter, findImporter, findStatement, IMPORTERS, JSON_BACKUP_FORMAT, STATEMENTS } from './registry';
import type { ImportedTrade, ImportIssue, OpenPosition, ParsedTrade } from '../fills/types';
import type { FormatParseResult, StatementImporter } from './types';
import { checkTimeZone, zoneEvidence, type TimeZoneCheck } from './zone-check';

export type * from './types';
// What an import gives its caller: the trades, positions and issues, and the day and result rules they were given.
export type * from '../fills/types';
export { dayOfImportedTrade, resultOf, type DecorateOptions } from '../fills/decorate';
export { IMPORTERS, STATEMENTS, listFormats, findImporter, detectImporter } from './registry';
export { headerKey, MAPPED_FORMAT, MAPPING_FIELDS, mappingProblem, readHeaderRow, type ColumnMapping } from './mapping';
export { NOT_AN_ARRAY_MESSAGE } from './formats/json-backup';
export { DEFAULT_FEE_SCHEDULE, parseRate, ratePerSide, retagForNet, scheduledCommission, type FeeSchedule } from './fees';
export { findStoredRoundTrips, matchStoredRoundTrips, type RoundTrip } from './duplicates';
export { CANDIDATE_ZONES, checkTimeZone, type TimeZoneCheck, type ZoneFit } from './zone-check';

/** Default zone for naive times in a file until the trader picks theirs in the import dialog. */
export const DEFAULT_FILE_TIME_ZONE = 'America/New_York';

/** Files above this are refused before parsing (the server and the browser check the byte size too). */
export const MAX_IMPORT_CHARS = 50 * 1024 * 1024;
/** The byte limit of an uploaded file, for the server's body limit and the dialog's check before reading. */
export const MAX_IMPORT_BYTES = MAX_IMPORT_CHARS;

/** One wording for a file over the limit, whoever notices it first (the dialog, the server's body limit, the parser). */
export function fileTooLargeMessage(limit: number = MAX_IMPORT_BYTES): string {
  return `The file is too large to import (limit ${Math.round(limit / 1024 / 1024)} MB)`;
}

export interface ImportOptions {
  /** IANA zone of naive times in the file (the import dialog's time zone). Default America/New_York. */
  timeZone?: string;
  /** Format id to use instead of the detected one (the dialog lets the trader override detection). */
  format?: string;
  /** Zone for trading day and session; default the market clock's, America/New_York (domain/market-time). */
  marketTimeZone?: string;
  /** The trader's setting: the exchange's trading day (default) or the calendar day. */
  tradingDay?: TradingDayRule;
  /** Zones to try first when the chosen one does not fit the file (the trader's own). */
  preferredTimeZones?: string[];
  /** The trader's column mapping: the file is read with it whatever its header. */
  mapping?: ColumnMapping;
  /** A mapping remembered for this header row: used only when no format recognises the file. */
  fallbackMapping?: ColumnMapping;
  maxChars?: number;
}

export type ImportErrorCode =
  | 'empty-file'
  | 'binary-file'
  | 'too-large'
  | 'invalid-json'
  | 'not-an-array'
  | 'no-data-rows'
  | 'unknown-format'
  | 'unknown-format-id'
  | 'invalid-mapping'
  | 'invalid-time-zone';

export interface ImportFailure {
  ok: false;
  code: ImportErrorCode;
  message: string;
  /** The header row seen, for 'unknown-format'. */
  headers?: string[];
}

export interface ImportPreview {
  ok: true;
  format: { id: string; label: string };
  /** What detection chose, when the trader overrode it. */
  detectedFormat: { id: string; label: string } | null;
  timeZone: string;
  /** Trades to create, in entry order. The server drops those whose importKey the account already has. */
  trades: ImportedTrade[];
  /** Positions not flat at the end of the file: shown, never imported. */
  openPositions: OpenPosition[];
  /** Every row that could not be read (error) or was read with a caveat (warning), by row. */
  issues: ImportIssue[];
  /** Rows deliberately skipped (e.g. "cancelled orders": 12). */
  ignored: Record<string, number>;
  /** Data rows (or array elements) read. */
  rowCount: number;
  totals: { trades: number; grossPnl: Cents; commission: Cents; netPnl: Cents };
  /** When the file's naive times do not fit the chosen zone (fills while the exchange is closed): what fits better. */
  timeZoneCheck: TimeZoneCheck | null;
  /** False when the file has no commissions or fees at all (the account's fee schedule applies). */
  costsInFile: boolean;
  /** The file's times have minutes only. */
  minutePrecision: boolean;
  /** The header row as written (empty for statements and JSON), for the column mapping. */
  headers: string[];
  /** The column mapping the file was read with, when it was (format 'mapped'). */
  mapping: ColumnMapping | null;
}

export type ImportResult = ImportPreview | ImportFailure;

/**
 * Reads an import file (CSV of any supported format, or the Trade Log's JSON backup) into its preview:
 * detected format, trades with their import keys, open positions, and every unreadable row. Pure: the same text and
 * options always give the same result; it never throws on bad content. Confirming inserts `trades` (minus known
 * keys) in one transaction. `between` is called between the steps of a CSV's parse (its records read, its fills read,
 * its trades built), where what the step before left behind is garbage: the parse worker collects it there, since
 * left to itself the engine let a 15 MB file's garbage pile up to twice its live memory (docs/architecture.md).
 */
export function parseImport(input: string | TextSource, options: ImportOptions = {}, between: () => void = () => undefined): ImportResult {
  // The text stays in its holder (see TextSource): a CSV's reader takes its pieces, and lets each go once it is read.
  const source = textSource(input);
  const timeZone = options.timeZone ?? DEFAULT_FILE_TIME_ZONE;
  const marketTimeZone = options.marketTimeZone ?? MARKET_TIME_ZONE;
  if (!isValidTimeZone(timeZone)) return fail('invalid-time-zone', `Unknown time zone '${timeZone}'`);
  if (!isValidTimeZone(marketTimeZone)) return fail('invalid-time-zone', `Unknown time zone '${marketTimeZone}'`);
  const decorate: DecorateOptions = { marketTimeZone, tradingDay: options.tradingDay ?? DEFAULT_TRADING_DAY_RULE };
  if (textLength(source) > (options.maxChars ?? MAX_IMPORT_CHARS)) {
    return fail('too-large', fileTooLargeMessage(options.maxChars ?? MAX_IMPORT_CHARS));
  }
  const first = source.pieces.findIndex((piece) => piece !== '');
  if (first !== -1) source.pieces[first] = source.pieces[first]!.replace(/^\uFEFF/, '');
  const visible = firstVisibleCharacter(source);
  if (visible === '') return fail('empty-file', 'The file is empty');
  // What the format is told by: the text's start.
  const start = textStart(source, DETECT_CHARS);
  const binary = binaryKind(start);
  if (binary) return fail('binary-file', binary);

  if (options.format === JSON_BACKUP_FORMAT.id || ((visible === '[' || visible === '{') && options.format === undefined)) {
    let value: unknown;
    try {
      value = JSON.parse(takeText(source).trimStart());
    } catch {
      return fail('invalid-json', 'Failed to import trades: the file is not valid JSON');
    }
    const parsed = parseJsonBackup(value);
    if ('error' in parsed) return fail('not-an-array', parsed.error);
    return preview(JSON_BACKUP_FORMAT, null, timeZone, decorate, parsed, (value as unknown[]).length);
  }

  const statement = options.mapping
    ? undefined
    : options.format !== undefined
      ? findStatement(options.format)
      : STATEMENTS.find((s) => s.detectText(start));
  if (statement) {
    const clock = { naive: 0, zoned: 0 };
    let parsed: ReturnType<StatementImporter['parseText']>;
    try {
      parsed = statement.parseText(takeText(source), { timeZone, clock });
    } catch (error) {
      return fail('unknown-format', `Failed to import trades: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (parsed.rowCount === 0) return fail('no-data-rows', `The ${statement.label} has no trades`);
    const zoneCheck = clock.naive > 0 ? checkTimeZone(zoneEvidence(parsed.fills, parsed.fileDays), timeZone, options.preferredTimeZones ?? []) : null;
    if (zoneCheck) parsed.issues.push({ row: 0, severity: 'warning', message: zoneCheck.message });
    return { ...preview({ id: statement.id, label: statement.label }, null, timeZone, decorate, parsed, parsed.rowCount), timeZoneCheck: zoneCheck };
  }

  const table = readCsvRows(source);
  if (!table.hasRows) {
    return fail('no-data-rows', 'The file has no trades: a CSV needs a header row and at least one data row', table.rawHeaders);
  }
  const detected = detectImporter(table.headers);
  let importer = detected;
  let mapping: ColumnMapping | null = null;
  if (options.mapping) {
    const problem = mappingProblem(options.mapping, table.rawHeaders);
    if (problem) return fail('invalid-mapping', problem, table.rawHeaders);
    mapping = options.mapping;
    importer = mappedImporter(mapping);
  } else if (options.format !== undefined) {
    importer = findImporter(options.format);
    if (!importer) return fail('unknown-format-id', `Unknown import format '${options.format}'`);
  } else if (!importer && options.fallbackMapping && mappingProblem(options.fallbackMapping, table.rawHeaders) === null) {
    mapping = options.fallbackMapping;
    importer = mappedImporter(mapping);
  }
  if (!importer) {
    return fail(
      'unknown-format',
      `Unknown file format. Columns found: ${table.rawHeaders.join(', ')}. Supported: ${IMPORTERS.map((i) => i.label).join('; ')}`,
      table.rawHeaders,
    );
  }
  let parsed: FormatParseResult;
  const clock = { naive: 0, zoned: 0 };
  try {
    // Each row (its cells, several times its size in the file) is made as it is read and goes soon after.
    parsed = importer.parse(readOnce(table.rows, between), { timeZone, clock });
    // A format that stops reading early has still been given every row: the rest are counted.
    const rest = table.rows[Symbol.iterator]();
    while (!rest.next().done);
    between();
    if (table.decimalComma) {
      parsed.issues.push({ row: 0, severity: 'warning', message: 'Numbers are written with a decimal comma (2499,5 is 2499.5) and were read so' });
    }
    if (table.dayFirstDates) {
      parsed.issues.push({ row: 0, severity: 'warning', message: 'Dates are written day first (25/06/2026 is 25 June 2026) and were read so' });
    }
  } catch (error) {
    // Parsers report bad rows instead of throwing; this is the net under a bug, so one bad file cannot crash a request.
    return fail('unknown-format', `Failed to import trades: ${error instanceof Error ? error.message : String(error)}`, table.rawHeaders);
  }
  if (options.format !== undefined && mapping === null && !importer.detect(table.headers)) {
    parsed.issues.push({
      row: 1,
      severity: 'warning',
      message: `The columns do not look like ${importer.label} (expected ${importer.columns.join(', ')})`,
    });
  }
  const overridden = detected && detected.id !== importer.id ? { id: detected.id, label: detected.label } : null;
  // Only a file whose times carry no offset depends on the chosen zone.
  const zoneCheck = clock.naive > 0 ? checkTimeZone(zoneEvidence(parsed.fills, parsed.fileDays), timeZone, options.preferredTimeZones ?? []) : null;
  if (zoneCheck) parsed.issues.push({ row: 0, severity: 'warning', message: zoneCheck.message });
  return {
    ...preview({ id: importer.id, label: importer.label }, overridden, timeZone, decorate, parsed, table.rowCount, between),
    timeZoneCheck: zoneCheck,
    headers: table.rawHeaders,
    mapping,
  };
}

function preview(
  format: { id: string; label: string },
  detectedFormat: { id: string; label: string } | null,
  timeZone: string,
  decorate: DecorateOptions,
  parsed: FormatParseResult,
  rowCount: number,
  between: () => void = () => undefined,
): ImportPreview {
  const keys = new ImportKeyAllocator();
  // The fills live on in the trades: each is handed over once, and the file's list of them is empty afterwards.
  const built = buildTrades(readOnce(parsed.fills), { ...decorate, keys, minutePrecision: parsed.minutePrecision === true, between });
  between();
  // A file without costs (the fee schedule prices its trades) says nothing of each fill's fees.
  if (parsed.costsInFile === false) for (const trade of built.trades) for (const fill of trade.fills ?? []) fill.commission = null;
  const issues = [...parsed.issues, ...built.issues];
  const openPositions = [...parsed.openPositions, ...built.openPositions];
  crossCheck(parsed, built.trades, openPositions, issues);
  for (const trade of built.trades) {
    if (trade.ambiguity)
      issues.push({ row: trade.rows[0] ?? 0, severity: 'warning', message: `${trade.contract} ${trade.side}: ${trade.ambiguity}` });
  }
  const trades = [...built.trades, ...parsed.trades.map((trade) => fromParsed(trade, keys, decorate, issues))];
  issues.sort((a, b) => a.row - b.row);
  const grossPnl = trades.reduce((sum, t) => sum + t.grossPnl, 0);
  const commission = trades.reduce((sum, t) => sum + t.commission, 0);
  return {
    ok: true,
    format,
    detectedFormat,
    timeZone,
    trades,
    openPositions,
    issues,
    ignored: parsed.ignored,
    rowCount,
    totals: { trades: trades.length, grossPnl, commission, netPnl: grossPnl - commission },
    timeZoneCheck: null,
    costsInFile: parsed.costsInFile !== false,
    minutePrecision: parsed.minutePrecision === true,
    headers: [],
    mapping: null,
  };
}

function fromParsed(trade: ParsedTrade, keys: ImportKeyAllocator, decorate: DecorateOptions, issues: ImportIssue[]): ImportedTrade {
  const { value: pointValue, unknownFutures } = pointValueOf(parseInstrument(trade.contract || trade.root));
  if (unknownFutures) {
    issues.push({ row: trade.rows[0] ?? 0, severity: 'warning', message: `Unknown futures root ${trade.root}` });
  }
  const core: TradeCore = {
    // Names kept with the trade: copies of their own, not slices of the file's text.
    account: sharedText(trade.account),
    symbol: sharedText(trade.root),
    contract: sharedText(trade.contract),
    side: trade.side,
    entryTime: trade.entryTime,
    exitTime: trade.exitTime,
    quantity: trade.quantity,
    entryPrice: trade.entryPrice,
    exitPrice: trade.exitPrice,
    grossPnl: trade.grossPnl,
    commission: trade.commission,
    entryFills: trade.entryFills ?? 1,
    exitFills: 1,
    rows: trade.rows,
    pointValue: trade.entryPrice !== null ? pointValue : null,
  };
  if (trade.day !== undefined) core.day = trade.day;
  if (trade.session !== undefined) core.session = trade.session;
  if (trade.tradeType !== undefined) core.tradeType = trade.tradeType;
  if (trade.tags !== undefined) core.tags = trade.tags;
  if (trade.notes !== undefined) core.notes = trade.notes;
  if (trade.link !== undefined) core.link = trade.link;
  if (trade.fills !== undefined) core.fills = trade.fills;
  const material = trade.id !== undefined ? `id|${trade.id}` : contentKeyMaterial(core);
  return decorateTrade(core, keys.next(material), decorate);
}

/**
 * Where the file reports P&L per pair (Tradovate, TopstepX), its sum per contract must equal the gross P&L rebuilt from
 * prices and point values; a difference means a wrong point value or a pair we could not read, and the trader should
 * know before importing.
 */
function crossCheck(parsed: FormatParseResult, trades: ImportedTrade[], open: OpenPosition[], issues: ImportIssue[]): void {
  if (!parsed.reportedGross) return;
  for (const [key, reported] of parsed.reportedGross) {
    if (Number.isNaN(reported.cents)) continue;
    const [account, contract] = key.split('\u0000') as [string, string];
    if (open.some((p) => p.account === account && p.contract === contract && p.rows.some((r) => reported.rows.includes(r)))) continue;
    const rebuilt = trades.filter((t) => t.account === account && t.contract === contract).reduce((sum, t) => sum + t.grossPnl, 0);
    if (rebuilt !== reported.cents) {
      issues.push({
        row: 0,
        severity: 'warning',
        message: `${contract}: the file's P&L totals ${centsToDecimalString(reported.cents)} but its prices give ${centsToDecimalString(rebuilt)}; check the point value`,
      });
    }
  }
}

function fail(code: ImportErrorCode, message: string, headers?: string[]): ImportFailure {
  return headers === undefined ? { ok: false, code, message } : { ok: false, code, message, headers };
}

/** How much of the text's start tells its format (a statement's header, binary content). */
const DETECT_CHARS = 65_536;

/** The text's first character that is not white space, or '' when it has none. */
function firstVisibleCharacter(source: TextSource): string {
  for (const piece of source.pieces) {
    const at = piece.search(/\S/);
    if (at !== -1) return piece[at]!;
  }
  return '';
}

/**
 * A file that is not text: NUL bytes (no CSV or JSON has them; UTF-16 and binary files do), a spreadsheet or zip
 * (starts with 'PK'), or mostly control and U+FFFD characters (bytes that were not valid UTF-8).
 */
function binaryKind(text: string): string | null {
  if (text.startsWith('PK\u0003\u0004')) return 'This looks like an Excel workbook or a zip archive: export the trades as CSV and import that file';
  if (text.startsWith('%PDF')) return 'This is a PDF document: export the trades as CSV and import that file';
  const sample = text.slice(0, 65_536);
  if (sample.includes('\u0000')) return 'The file is not a text file (it contains binary data)';
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) || code === 0xfffd) odd++;
  }
  return odd > sample.length * 0.1 ? 'The file is not a text file (it contains binary data)' : null;
}
