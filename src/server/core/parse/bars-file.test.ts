import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBarFile } from '../../../domain/importers/bars';
import { barChunks, lineBatches, scanBarFile, slicesOf } from './bars-file';

/**
 * A bar file read from disk a slice at a time must read as its bytes read whole: a line, a CRLF, a UTF-8 character or
 * a byte-order mark cut by a slice's end is put back together, and a bad row deep in the file keeps its row number.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bars-file-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
function onDisk(bytes: Uint8Array): { path: string } {
  const file = path.join(dir, `file-${files++}`);
  fs.writeFileSync(file, bytes);
  return { path: file };
}

/** NinjaTrader 1-minute bars (end times, `;` between fields), a gentle walk of prices. */
function ninjaTrader(rows: number, lineEnd = '\n'): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const d = new Date(Date.UTC(2025, 0, 2, 0, 1) + i * 60_000);
    const open = 15_000 + (i % 17) * 0.25;
    const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
    lines.push(`${stamp};${open.toFixed(2)};${(open + 1).toFixed(2)};${(open - 0.5).toFixed(2)};${(open + 0.25).toFixed(2)};${100 + (i % 40)}`);
  }
  return lines.join(lineEnd) + lineEnd;
}

const flat = (source: Parameters<typeof lineBatches>[0], sliceSize?: number) => [...lineBatches(source, 7, sliceSize)].flat();

function readAll(batches: Iterable<string[]>) {
  const reader = readBarFile(batches, { contract: 'MNQH5' });
  let bars = 0;
  for (let step = reader.next(); ; step = reader.next()) {
    if (step.done) return { summary: step.value, bars };
    for (const batch of step.value) bars += batch.bars.length;
  }
}

describe('lineBatches', () => {
  it('a file on disk in slices of 1 to 13 bytes gives the lines of its bytes read at once: CRLFs, UTF-8 and the BOM cut anywhere', () => {
    const text = `\uFEFFtime;open;note\r\n1;2;café ☕\r\n3;4;𝄞 clef\n\n5;6;last without a line end`;
    const bytes = new TextEncoder().encode(text);
    const whole = flat(bytes);
    expect(whole).toEqual(['time;open;note', '1;2;café ☕', '3;4;𝄞 clef', '', '5;6;last without a line end']);
    const file = onDisk(bytes);
    for (let size = 1; size <= 13; size++) expect(flat(file, size), `slices of ${size}`).toEqual(whole);
  });

  it('UTF-16 after its byte-order mark, the mark cut from its second byte', () => {
    const text = 'a;1\r\nb;2\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    const bom = Buffer.from([0xfe, 0xff]);
    for (const bytes of [le, Buffer.concat([bom, be])]) for (const size of [1, 3, 1024]) expect(flat(onDisk(bytes), size)).toEqual(['a;1', 'b;2']);
  });

  it('an empty file and a one-byte file', () => {
    expect(flat(onDisk(new Uint8Array(0)), 1)).toEqual([]);
    expect(flat(onDisk(new TextEncoder().encode('x')), 1)).toEqual(['x']);
  });
});

describe('a bar file read from disk', () => {
  it('in slices that cut its rows anywhere, reads as its bytes: the same bars, and a bad row deep inside named by its row', () => {
    const lines = ninjaTrader(3_000, '\r\n').split('\r\n');
    lines[2_345] = '20250103 150100;15000.00;oops;14999.50;15000.25;100';
    const bytes = new TextEncoder().encode(lines.join('\r\n'));
    const whole = readAll(lineBatches(bytes));
    expect(whole.summary).toMatchObject({ ok: true, rowCount: 3_000, errorRows: 1 });
    const errors = whole.summary.ok ? whole.summary.issues.filter((issue) => issue.severity === 'error') : [];
    expect(errors).toEqual([{ row: 2_346, severity: 'error', message: "Unreadable high price 'oops'" }]);
    expect(whole.bars).toBe(2_999);
    const file = onDisk(bytes);
    for (const size of [97, 1_000, 4_096]) expect(readAll(lineBatches(file, 500, size)), `slices of ${size}`).toEqual(whole);
    expect(scanBarFile(file, { contract: 'MNQH5' })).toEqual(whole.summary);
  });

  it('gives the chunks of its bytes, and closes the file when the reading is left half way', () => {
    // Larger than a slice (1 MB), so the file is still open after the first chunk.
    const bytes = new TextEncoder().encode(ninjaTrader(25_500));
    const file = onDisk(bytes);
    const chunks = (source: Parameters<typeof barChunks>[0]) => [...barChunks(source, { contract: 'MNQH5' }, 1_000, new Set())];
    const fromBytes = chunks(bytes);
    expect(bytes.length).toBeGreaterThan(1024 * 1024);
    expect(fromBytes.map((c) => c.count)).toEqual([...Array<number>(25).fill(1_000), 500]);
    expect(chunks(file)).toEqual(fromBytes);
    const open = () => fs.readdirSync('/proc/self/fd').length;
    if (!fs.existsSync('/proc/self/fd')) return;
    const before = open();
    const reading = barChunks(file, { contract: 'MNQH5' }, 1_000, new Set());
    expect(reading.next().value).toEqual(fromBytes[0]);
    expect(open()).toBe(before + 1);
    reading.return(undefined);
    expect(open()).toBe(before);
  });

  it('reads a slice at a time: never more than the slice asked for', () => {
    const file = onDisk(new Uint8Array(10_000).fill(0x41));
    const sizes = [...slicesOf(file, 4_096)].map((slice) => slice.length);
    expect(sizes).toEqual([4_096, 4_096, 1_808]);
  });
});
