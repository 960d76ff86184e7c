import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { detachedText, readCsvRows, sharedText } from './csv';
import { parseImport } from '.';

/**
 * The rows of a CSV read a block at a time are the rows of one parse of the whole text: same cells, same row numbers,
 * whatever the block size and wherever quotes and line breaks fall.
 */
function wholeText(text: string) {
  const records = Papa.parse<string[]>(text, { skipEmptyLines: false, delimitersToGuess: [',', '\t', ';', '|'] }).data;
  const header = records.findIndex((r) => !r.every((v) => v.trim() === ''));
  return records
    .map((record, index) => ({ row: index + 1, record }))
    .filter(({ record }, index) => index > header && !record.every((v) => v.trim() === ''));
}

/** The text cut into pieces of `pieceChars` characters (the last shorter), as a holder carries them. */
function piecesOf(text: string, pieceChars: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += pieceChars) pieces.push(text.slice(at, at + pieceChars));
  return pieces;
}

function inBlocks(text: string, blockChars: number, pieceChars?: number) {
  const reading = readCsvRows(pieceChars === undefined ? text : { pieces: piecesOf(text, pieceChars) }, blockChars);
  // The cells are read through the header's names (they are getters on a shared prototype).
  const rows = [...reading.rows].map(({ row, cells }) => ({ row, cells: Object.fromEntries(reading.headers.map((h) => [h, cells[h]])) }));
  return { reading, rows };
}

function expectSameRows(text: string, blockChars: number, pieceChars?: number) {
  const expected = wholeText(text);
  const { reading, rows } = inBlocks(text, blockChars, pieceChars);
  expect(rows.map((r) => r.row)).toEqual(expected.map((r) => r.row));
  expect(reading.rowCount).toBe(expected.length);
  expect(reading.hasRows).toBe(expected.length > 0);
  // The same cells as the text read in one block (numbers and dates rewritten alike where the file needs it) ...
  expect(rows).toEqual(inBlocks(text, Number.MAX_SAFE_INTEGER).rows);
  if (reading.decimalComma || reading.dayFirstDates) return;
  // ... which are the record's values in order, by the header's names (headers without a name apart).
  const named = reading.rawHeaders.length === reading.headers.length;
  rows.forEach((r, i) => {
    if (named) expect(Object.values(r.cells)).toEqual(reading.headers.map((_, c) => expected[i]!.record[c] ?? ''));
    else expect(Object.values(r.cells).every((v) => expected[i]!.record.includes(v!) || v === '')).toBe(true);
  });
}

describe('readCsvRows', () => {
  const tricky = [
    'a,b,c\r\n1,"two, with a comma",3\r\n4,"five\r\nover two lines",6\r\n7,"say ""hi""",9\r\n\r\n,,\r\n10,11,12',
    'a;b;c\n1;"x\ny";2,5\n3;"";4\n"q""";"r";"s"\n5;6;7\n',
    'sym\tqty\nMNQ\t1\n"ES\n"\t2\nNQ\t3\n',
    'a,b\n1,2\n3,"unclosed\n4,5\n6,7\n',
    'a,b\n1,"closed" then text\n2,3\n4,5\n',
    'a,b\n1,mid"quote\n2,"3"\n4,5\n',
    '\n\n,,\nh1,h2\n1,2\n3,4\n',
  ];
  for (const [n, text] of tricky.entries()) {
    it(`gives the rows of one parse of the whole text (case ${n + 1}), with blocks and pieces of any size`, () => {
      for (const blockChars of [1, 2, 3, 5, 8, 13, 21, 1 << 20]) {
        expectSameRows(text, blockChars);
        for (const pieceChars of [1, 2, 4, 9, 1 << 20]) expectSameRows(text, blockChars, pieceChars);
      }
    });
  }

  it('reads every real broker export and every fixture of ours the same in blocks of 512 characters', () => {
    const roots = [
      fileURLToPath(new URL('./fixtures', import.meta.url)),
      fileURLToPath(new URL('../../../../shared/fixtures/brokers', import.meta.url)),
    ];
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(csv|txt)$/i.test(name)) files.push(path);
      }
    };
    roots.forEach(walk);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      expectSameRows(readFileSync(file, 'utf8'), 512);
      expectSameRows(readFileSync(file, 'utf8'), 512, 700);
    }
  });

  it('lets each piece of a holder go once the rows in it are read', () => {
    const text = `a,b\n${Array.from({ length: 6000 }, (_, i) => `${i},"x${i}"`).join('\n')}\n`;
    const pieces = piecesOf(text, 1000);
    const reading = readCsvRows({ pieces }, 512);
    const seen: number[] = [];
    for (const row of reading.rows) {
      seen.push(row.row);
      if (row.row === 3000) break;
    }
    // Half way through (past the 2,000 rows read ahead), the early pieces are gone and the late ones not yet read.
    expect(pieces.slice(0, 20).every((p) => p === '')).toBe(true);
    expect(pieces.slice(-20).every((p) => p !== '')).toBe(true);
    expect([...reading.rows].length + seen.length).toBe(6000);
    expect(pieces.every((p) => p === '')).toBe(true);
  });

  it('finds a day-first date that two pieces cut in two', () => {
    const text = `date,n\n01/02/2026,1\n25/02/2026,2\n03/02/2026,3\n`;
    const at = text.indexOf('25/02') + 1;
    const reading = readCsvRows({ pieces: [text.slice(0, at), text.slice(at)] }, 8);
    expect(reading.dayFirstDates).toBe(true);
    expect([...reading.rows].map((r) => r.cells['date'])).toEqual(['2026-02-01', '2026-02-25', '2026-02-03']);
  });

  it('decides day-first dates on every row, the last included, and rewrites them', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `0${(i % 9) + 1}/01/2026,${i}`);
    const text = `date,n\n${rows.join('\n')}\n25/01/2026,x\n`;
    const { reading, rows: read } = inBlocks(text, 256);
    expect(reading.dayFirstDates).toBe(true);
    expect(read[0]!.cells['date']).toBe('2026-01-01');
    expect(read.at(-1)!.cells['date']).toBe('2026-01-25');
    // A month above 12 anywhere makes them month first.
    const usText = `date,n\n${rows.join('\n')}\n01/25/2026,x\n13/01/2026,y\n`;
    expect(inBlocks(usText, 256).reading.dayFirstDates).toBe(false);
  });

  it('reads the decimal comma from the rows after the header, in blocks too', () => {
    const text = `price;qty\n${Array.from({ length: 50 }, (_, i) => `2499,${i % 4};1`).join('\n')}\n`;
    const { reading, rows } = inBlocks(text, 64);
    expect(reading.decimalComma).toBe(true);
    expect(rows[3]!.cells['price']).toBe('2499.3');
  });

  it('counts the rows a reader left unread', () => {
    const reading = readCsvRows('a,b\n1,2\n3,4\n5,6\n', 4);
    for (const row of reading.rows) {
      expect(row.row).toBe(2);
      break;
    }
    const rest = [...reading.rows].map((r) => r.row);
    expect(rest).toEqual([3, 4]);
    expect(reading.rowCount).toBe(3);
  });
});

describe('a file handed over in a holder', () => {
  it('is taken out of it by the reader, and read as the same text would be', () => {
    const text = `\uFEFFsymbol,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,buyFillId,sellFillId\n${Array.from(
      { length: 40 },
      (_, i) =>
        `MNQH6,1,21000.25,21001,$1.50,01/05/2026 09:${String(10 + i).padStart(2, '0')}:00,01/05/2026 09:${String(10 + i).padStart(2, '0')}:30,${1000 + 2 * i},${1001 + 2 * i}`,
    ).join('\n')}\n`;
    const holder = { pieces: [text.slice(0, 700), text.slice(700, 1500), text.slice(1500)] };
    const fromHolder = parseImport(holder, { timeZone: 'America/New_York' });
    // The parse keeps nothing of the text in the holder: the caller's holder no longer keeps it alive either.
    expect(holder.pieces).toEqual([]);
    const fromText = parseImport(text, { timeZone: 'America/New_York' });
    expect(fromHolder.ok && fromHolder.trades.length).toBe(40);
    expect(fromHolder).toEqual(fromText);
  });

  it('reads every fixture of ours in pieces as it reads the whole text: statements, backups and CSVs alike', () => {
    const dir = fileURLToPath(new URL('./fixtures', import.meta.url));
    const names = readdirSync(dir);
    expect(names.some((n) => n.endsWith('.json')) && names.some((n) => n.includes('statement'))).toBe(true);
    let read = 0;
    for (const name of names) {
      const text = readFileSync(join(dir, name), 'utf8');
      const whole = parseImport(text, { timeZone: 'America/New_York' });
      if (whole.ok) read++;
      for (const pieceChars of [7, 700])
        expect(parseImport({ pieces: piecesOf(text, pieceChars) }, { timeZone: 'America/New_York' }), name).toEqual(whole);
    }
    // Files of an unknown broker need a mapping: the others are read.
    expect(read).toBeGreaterThanOrEqual(names.length - 2);
  });

  it('tells an empty, a binary and a JSON file across pieces', () => {
    const options = { timeZone: 'America/New_York' };
    expect(parseImport({ pieces: ['\uFEFF', '  \n', '', '\t\r\n'] }, options)).toMatchObject({ ok: false, code: 'empty-file' });
    expect(parseImport({ pieces: ['date,symbol\n', '2026-01-05,\u0000ES\n'] }, options)).toMatchObject({ ok: false, code: 'binary-file' });
    const json = parseImport({ pieces: ['\uFEFF', '  \n', '[{"date":"2026-01-05",', '"symbol":"ES","pnl":12.5}]'] }, options);
    expect(json.ok && json.trades.map((t) => t.netPnl)).toEqual([1250]);
  });

  it('reads a JSON backup from its holder too', () => {
    const text = JSON.stringify([{ date: '2026-01-05', symbol: 'ES', pnl: 12.5 }]);
    const holder = { pieces: [text.slice(0, 9), text.slice(9)] };
    const result = parseImport(holder, { timeZone: 'America/New_York' });
    expect(holder.pieces).toEqual([]);
    expect(result.ok && result.trades.map((t) => t.netPnl)).toEqual([1250]);
  });
});

describe('detachedText and sharedText', () => {
  it('give the same characters, one string for equal names', () => {
    const cellOfFile = 'APEX-123456-01,MNQH6'.slice(0, 14);
    expect(detachedText(cellOfFile)).toBe('APEX-123456-01');
    expect(detachedText('')).toBe('');
    expect(detachedText('ünï "quoted" \\ \u2028')).toBe('ünï "quoted" \\ \u2028');
    expect(sharedText(cellOfFile)).toBe('APEX-123456-01');
  });
});
