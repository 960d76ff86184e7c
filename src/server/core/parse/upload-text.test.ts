import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText } from './convert';
import { readUploadText } from './upload-text';

const dir = mkdtempSync(join(tmpdir(), 'upload-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function fileOf(bytes: Uint8Array): string {
  const path = join(dir, `upload-${files++}`);
  writeFileSync(path, bytes);
  return path;
}

describe('readUploadText', () => {
  it('gives the text decodeText gives for the whole file, wherever a piece ends in a character', () => {
    // Characters of one to four bytes, a BOM inside the text, and bytes that are not UTF-8.
    const text = 'date,sym,note\n2026-01-05,MNQ,café 😀 ü€\n\uFEFF2026-01-06,ES,naïve ✓\n';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text), Buffer.from([0xe2, 0x82, 0x41, 0xc3, 0x0a, 0xf0, 0x9f])]);
    const path = fileOf(bytes);
    const whole = decodeText(bytes);
    expect(whole.startsWith('date')).toBe(true);
    for (let pieceBytes = 1; pieceBytes <= bytes.length + 1; pieceBytes++) {
      const { pieces } = readUploadText(path, pieceBytes);
      expect(pieces.join('')).toBe(whole);
      // No piece is empty.
      expect(pieces.every((piece) => piece !== '')).toBe(true);
    }
  });

  it('reads a UTF-16 file whole, and an empty one as no text', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('symbol,qty\nES,1\n', 'utf16le')]);
    expect(readUploadText(fileOf(utf16), 4).pieces).toEqual(['symbol,qty\nES,1\n']);
    expect(readUploadText(fileOf(new Uint8Array(0))).pieces.join('')).toBe('');
  });

  it('cuts a large file into pieces of about the size asked for', () => {
    const line = 'MNQH6,1,21000.25,21001,ü\n';
    const bytes = Buffer.from(line.repeat(2000));
    const { pieces } = readUploadText(fileOf(bytes), 4096);
    expect(pieces.join('')).toBe(line.repeat(2000));
    expect(pieces.length).toBe(Math.ceil(bytes.length / 4096));
  });
});
