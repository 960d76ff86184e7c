import type { ImportIssue } from '../../fills/types';
import type { Bar, Resolution } from '../../market/bars';
import { isFuturesInstrument } from '../../instruments';
import { checkTimeZone, type TimeZoneCheck } from '../zone-check';
import type { BarFormat, BarMapping } from './bar-formats';
import { parseBars, type BarsFailure, type ParseBarsOptions } from './parse-bars';

/**
 * A bar file read in parts, in bounded memory: a 50 MB file is a million bars, and holding them all as objects (then
 * handing them from the parse worker to the server's thread) took gigabytes and stalled every other request. The file
 * comes in as batches of lines; each batch is read by parseBars with what the first batch settled (the format, the
 * resolution, the zone, the header of a CSV), and its bars are handed on as soon as they are read. Across batches a
 * bar already read is recognised by a compact index (its start, its row and a digest of its prices: 16 bytes a bar),
 * so the same bar twice counts once, and twice with other prices is an unreadable row, as in a file read whole.
 *
 * Unreadable rows are counted all; the first MAX_ISSUES are kept with their row numbers. The zone check reads a
 * sample of the bars' times, as it reads a sample of a file's fills.
 */

export const MAX_ISSUES = 1_000;
/** Lines the first batch reads at least, so the bars' spacing tells the resolution. */
const FIRST_BATCH_LINES = 1_000;
/** Bar times the zone check keeps at most (it reads a sample of 4,000). */
const ZONE_SAMPLE = 8_000;

export interface SeriesSummary {
  contract: string;
  bars: number;
  /** Epoch ms of the first and last bar start. */
  first: number;
  last: number;
}

export interface BarFileSummary {
  ok: true;
  format: { id: BarFormat['id']; label: string };
  resolution: Resolution;
  series: SeriesSummary[];
  rowCount: number;
  /** The first MAX_ISSUES issues, by row. */
  issues: ImportIssue[];
  /** Unreadable rows in all (issues holds the first of them). */
  errorRows: number;
  duplicates: number;
  timeZone: string;
  naiveTimes: boolean;
  timeZoneCheck: TimeZoneCheck | null;
  headers: string[];
  mapping: BarMapping | null;
}

/** The bars a batch of lines gave, by contract (each contract's in time order). */
export type BarBatch = Array<{ contract: string; bars: Bar[] }>;

/** Where each contract's bars already read are: sorted starts while the file is in order, a map for the rest. */
class SeenBars {
  private starts = new Float64Array(1024);
  private rows = new Int32Array(1024);
  private digests = new Int32Array(1024);
  private size = 0;
  private readonly late = new Map<number, { row: number; digest: number }>();

  /** The row and digest of the bar already read at `start`, or null (and it is recorded as read now). */
  see(start: number, row: number, digest: number): { row: number; digest: number } | null {
    const n = this.size;
    if (n === 0 || start > this.starts[n - 1]!) {
      this.append(start, row, digest);
      return null;
    }
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    if (lo < n && this.starts[lo] === start) return { row: this.rows[lo]!, digest: this.digests[lo]! };
    const known = this.late.get(start);
    if (known) return known;
    this.late.set(start, { row, digest });
    return null;
  }

  private append(start: number, row: number, digest: number) {
    if (this.size === this.starts.length) {
      const grow = <T extends Float64Array | Int32Array>(array: T, Kind: new (n: number) => T): T => {
        const next = new Kind(array.length * 2);
        next.set(array);
        return next;
      };
      this.starts = grow(this.starts, Float64Array);
      this.rows = grow(this.rows, Int32Array);
      this.digests = grow(this.digests, Int32Array);
    }
    this.starts[this.size] = start;
    this.rows[this.size] = row;
    this.digests[this.size] = digest;
    this.size++;
  }
}

/** A 32-bit digest of a bar's prices (FNV-1a): equal prices give equal digests. */
function digestOf(bar: Bar): number {
  const text = `${bar.open},${bar.high},${bar.low},${bar.close},${bar.volume ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** A sample of the bars' times for the zone check: every `stride`th, the stride doubling whenever the sample fills. */
class TimeSample {
  times: number[] = [];
  private stride = 1;
  private seen = 0;

  add(time: number) {
    if (this.seen++ % this.stride !== 0) return;
    this.times.push(time);
    if (this.times.length >= ZONE_SAMPLE) {
      this.times = this.times.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
    }
  }
}

interface Settled {
  format: BarFileSummary['format'];
  resolution: Resolution;
  timeZone: string;
  headers: string[];
  mapping: BarMapping | null;
  /** A CSV's header line, put in front of every later batch; null for a file without one. */
  header: string | null;
}

/**
 * Reads a bar file given as batches of its lines (in file order, without their line ends), yielding each batch's new
 * bars; returns the file's summary, or why it cannot be read at all.
 */
export function* readBarFile(
  batches: Iterable<readonly string[]>,
  options: ParseBarsOptions = {},
): Generator<BarBatch, BarFileSummary | BarsFailure, void> {
  // The layout the first batch settles (assigned inside read() below).
  let settled: Settled | null = null as Settled | null;
  let lineNo = 0;
  let rowCount = 0;
  let duplicates = 0;
  let errorRows = 0;
  let naiveTimes = false;
  let pending: string[] = [];
  const issues: ImportIssue[] = [];
  const seen = new Map<string, SeenBars>();
  const series = new Map<string, SeriesSummary>();
  const sample = new TimeSample();
  const futures = new Map<string, boolean>();

  const note = (issue: ImportIssue) => {
    if (issue.severity === 'error') errorRows++;
    if (issues.length < MAX_ISSUES) issues.push(issue);
  };

  /** Reads one batch of lines, the first of which is line `batchFirstLine` of the file; a failure ends the file. */
  function* read(batchLines: readonly string[], batchFirstLine: number): Generator<BarBatch, BarsFailure | null, void> {
    let text: string;
    let rowOf: (row: number) => number;
    if (!settled) {
      text = batchLines.join('\n');
      rowOf = (row) => row;
    } else if (batchLines.every((line) => line.trim() === '')) {
      return null;
    } else if (settled.header !== null) {
      text = `${settled.header}\n${batchLines.join('\n')}`;
      // Row 1 is the header line put back in front; the batch's first line is row 2.
      rowOf = (row) => batchFirstLine + row - 2;
    } else {
      text = batchLines.join('\n');
      rowOf = (row) => batchFirstLine + row - 1;
    }
    const result = parseBars(
      text,
      settled
        ? {
            ...options,
            format: settled.format.id,
            resolution: settled.resolution,
            timeZone: settled.timeZone,
            ...(settled.mapping && { mapping: settled.mapping }),
            checkTimeZone: false,
            keepRows: true,
          }
        : { ...options, checkTimeZone: false, keepRows: true },
    );
    if (!result.ok) {
      // A later batch of only unreadable rows says 'no-data-rows': its rows are counted as the rest are.
      if (settled && result.code === 'no-data-rows') return null;
      return result;
    }
    if (!settled) {
      const headerIndex = result.format.id === 'ninjatrader-bars' ? -1 : batchLines.findIndex((line) => line.trim() !== '');
      settled = {
        format: result.format,
        resolution: result.resolution,
        timeZone: result.timeZone,
        headers: result.headers,
        mapping: result.mapping,
        header: headerIndex === -1 ? null : batchLines[headerIndex]!,
      };
    }
    rowCount += result.rowCount;
    duplicates += result.duplicates;
    naiveTimes ||= result.naiveTimes;
    // A message may name another row of the batch (the same bar on an earlier row): that row is the file's too.
    const batchIssues: ImportIssue[] = result.issues.map((issue) => ({
      ...issue,
      row: rowOf(issue.row),
      message: issue.message.replace(/appears on row (\d+)/, (_, row: string) => `appears on row ${rowOf(Number(row))}`),
    }));
    const out: BarBatch = [];
    for (const s of result.series) {
      let index = seen.get(s.contract);
      if (!index) seen.set(s.contract, (index = new SeenBars()));
      const kept: Bar[] = [];
      for (const [i, bar] of s.bars.entries()) {
        const digest = digestOf(bar);
        const row = rowOf(s.rows![i]!);
        const known = index.see(bar.start, row, digest);
        if (known) {
          if (known.digest === digest) duplicates++;
          else batchIssues.push({ row, severity: 'error', message: `A bar at this time appears on row ${known.row} with other prices` });
          continue;
        }
        kept.push(bar);
        let summary = series.get(s.contract);
        if (!summary) series.set(s.contract, (summary = { contract: s.contract, bars: 0, first: bar.start, last: bar.start }));
        summary.bars++;
        if (bar.start < summary.first) summary.first = bar.start;
        if (bar.start > summary.last) summary.last = bar.start;
        let isFutures = futures.get(s.contract);
        if (isFutures === undefined) futures.set(s.contract, (isFutures = isFuturesInstrument(s.contract)));
        if (isFutures) sample.add(bar.start);
      }
      if (kept.length > 0) out.push({ contract: s.contract, bars: kept });
    }
    batchIssues.sort((a, b) => a.row - b.row);
    for (const issue of batchIssues) note(issue);
    if (out.length > 0) yield out;
    return null;
  }

  for (const lines of batches) {
    const firstLine = lineNo + 1;
    lineNo += lines.length;
    if (settled) {
      const failure = yield* read(lines, firstLine);
      if (failure) return failure;
      continue;
    }
    // The first batch settles the layout: it is read once it has enough lines to tell the resolution from the bars'
    // spacing (or the file ends).
    pending = pending.concat(lines);
    if (pending.filter((line) => line.trim() !== '').length < FIRST_BATCH_LINES) continue;
    const failure = yield* read(pending, 1);
    pending = [];
    if (failure) return failure;
  }
  if (!settled && pending.some((line) => line.trim() !== '')) {
    const failure = yield* read(pending, 1);
    if (failure) return failure;
  }

  if (!settled) return { ok: false, code: 'empty-file', message: 'The file is empty' };
  if (series.size === 0 && errorRows === 0) return { ok: false, code: 'no-data-rows', message: 'The file has no bars', headers: settled.headers };
  let timeZoneCheck: TimeZoneCheck | null = null;
  if (naiveTimes) {
    timeZoneCheck = checkTimeZone({ times: sample.times, days: [] }, settled.timeZone, options.preferredTimeZones ?? []);
    if (timeZoneCheck) {
      timeZoneCheck = { ...timeZoneCheck, message: timeZoneCheck.message.replace(/ fills fall /, ' bars fall ') };
      issues.unshift({ row: 0, severity: 'warning', message: timeZoneCheck.message });
      if (issues.length > MAX_ISSUES) issues.pop();
    }
  }
  return {
    ok: true,
    format: settled.format,
    resolution: settled.resolution,
    series: [...series.values()],
    rowCount,
    issues,
    errorRows,
    duplicates,
    timeZone: settled.timeZone,
    naiveTimes,
    timeZoneCheck,
    headers: settled.headers,
    mapping: settled.mapping,
  };
}

/** Splits text into batches of lines (a helper for tests and for callers that hold the text already). */
export function* linesInBatches(text: string, size = 20_000): Generator<string[]> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i += size) yield lines.slice(i, i + size);
}
