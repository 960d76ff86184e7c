import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type { TextSource } from '../../../domain/importers';
import { decodeText } from './convert';

/** Bytes of the upload decoded into each piece of its text. */
const PIECE_BYTES = 1 << 20;

/**
 * An upload's text as the parse reads it (TextSource): decoded from its file a megabyte at a time, a piece each, so
 * neither the file's bytes nor its whole text are ever held at once (a CSV's reader lets each piece go once read). The
 * same text as decodeText gives for the whole file: a piece ends before a UTF-8 character its megabyte would cut in
 * two, the BOM is dropped from the first piece alone, and a UTF-16 file (rare, and small) is decoded whole.
 */
export function readUploadText(path: string, pieceBytes = PIECE_BYTES): TextSource {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(Math.max(pieceBytes, 4));
    const pieces: string[] = [];
    // The first piece's decoder drops a BOM at its start; the others keep a U+FEFF that starts their piece, since it
    // is then inside the text.
    const first = new TextDecoder('utf-8');
    const rest = new TextDecoder('utf-8', { ignoreBOM: true });
    let carried = 0;
    for (;;) {
      const read = readSync(fd, buffer, carried, buffer.length - carried, null);
      const end = carried + read;
      if (pieces.length === 0 && end >= 2 && isUtf16(buffer)) return { pieces: [decodeText(readFileSync(path))] };
      const cut = read === 0 ? end : utf8Boundary(buffer, end);
      if (cut > 0) pieces.push((pieces.length === 0 ? first : rest).decode(buffer.subarray(0, cut)));
      buffer.copy(buffer, 0, cut, end);
      carried = end - cut;
      if (read === 0) return { pieces };
    }
  } finally {
    closeSync(fd);
  }
}

const isUtf16 = (bytes: Uint8Array) => (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);

/**
 * Where the bytes up to `end` can be cut without cutting a UTF-8 character in two: before the lead byte of a
 * character whose continuation bytes are not all there yet, else at `end`. Bytes that are not UTF-8 are cut anywhere:
 * they decode to U+FFFD whole or in pieces.
 */
function utf8Boundary(bytes: Uint8Array, end: number): number {
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 3 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return end;
  const byte = bytes[lead]!;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return end - lead < length ? lead : end;
}
