import type { TextEncoding } from '../../common/job/encoding.js';

/** Windows-1252's printable characters in 0x80–0x9F (Node's decoder treats the label as Latin-1 there). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const C1_RANGE = /[\u0080-\u009f]/g;

export interface ChunkDecoder {
  decode(bytes: Uint8Array, stream: boolean): string;
}

/**
 * A streaming decoder per encoding; UTF-8 and UTF-16 are strict so bad bytes are caught, not
 * replaced (a UTF-16 file with an odd byte or half a surrogate pair read "2" as "2\ufffd").
 * A leading byte order mark is dropped, as at the start of a text file, unless `keepBom`: where
 * the bytes start elsewhere (a value of a binary file, a part of a text file after its start)
 * U+FEFF is a character of the value.
 */
export function chunkDecoder(encoding: TextEncoding, { keepBom = false }: { keepBom?: boolean } = {}): ChunkDecoder {
  if (encoding === 'windows-1252') {
    const latin1 = new TextDecoder('latin1');
    return {
      decode: (bytes, stream) => latin1.decode(bytes, { stream }).replace(C1_RANGE, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!),
    };
  }
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be', ignoreBOM: keepBom });
  return { decode: (bytes, stream) => decoder.decode(bytes, { stream }) };
}

/**
 * Decoded text is made in pieces of at most this many bytes. A string of a whole 4 MiB read is
 * too large for V8's young generation: each took fresh pages of its own (and each join with the
 * record left from the previous read another), some 100,000 page faults over a 90 MB file, a
 * second of system time. Pieces of 64 KiB are made in pages V8 reuses.
 */
const PIECE_BYTES = 1 << 16;

/**
 * The text of `bytes` in pieces, as one `decode(bytes, stream)` gives it: every piece is decoded
 * before any is used, so a read that is not valid text fails before any of its text is parsed,
 * as it did when it was decoded whole. At least one piece (possibly empty) is returned.
 */
export function decodePieces(decoder: ChunkDecoder, bytes: Uint8Array, stream: boolean): string[] {
  const pieces: string[] = [];
  for (let at = 0; ; at += PIECE_BYTES) {
    const last = at + PIECE_BYTES >= bytes.length;
    pieces.push(decoder.decode(bytes.subarray(at, last ? bytes.length : at + PIECE_BYTES), last ? stream : true));
    if (last) return pieces;
  }
}
