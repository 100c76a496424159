import { describe, expect, it } from 'vitest';
import { chunkDecoder, decodePieces } from '../../src/io/input/text-decoder.js';

/*
 * The CSV reader decodes each 4 MiB read in pieces of 64 KiB (strings V8 makes in reused pages);
 * the pieces must be exactly the text one decode of the read gives, whatever falls on a piece
 * boundary, and a read that is not valid text must fail before any piece is handed on.
 */
describe('decodePieces', () => {
  const PIECE = 1 << 16;

  it('gives the text of one decode, with characters of several bytes cut at the boundaries', () => {
    // "é" (2 bytes), "€" (3) and "𝄞" (4) repeated: every boundary offset falls inside one of them.
    const text = 'aé€𝄞'.repeat(40_000);
    const bytes = new TextEncoder().encode(text);
    const pieces = decodePieces(chunkDecoder('utf-8'), bytes, false);
    expect(pieces.length).toBe(Math.ceil(bytes.length / PIECE));
    expect(pieces.join('')).toBe(text);
  });

  it('keeps a character cut at the end of a read for the next read (stream)', () => {
    const bytes = new TextEncoder().encode('x'.repeat(PIECE * 2 - 1) + '€y');
    const decoder = chunkDecoder('utf-8');
    const first = decodePieces(decoder, bytes.subarray(0, PIECE * 2), true);
    const second = decodePieces(decoder, bytes.subarray(PIECE * 2), false);
    expect(first.join('')).toBe('x'.repeat(PIECE * 2 - 1));
    expect(second).toEqual(['€y']);
  });

  it('drops a leading byte order mark once, and maps Windows-1252 in every piece', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('a;b\n'.repeat(PIECE))]);
    expect(decodePieces(chunkDecoder('utf-8'), bom, false).join('')).toBe('a;b\n'.repeat(PIECE));
    const cp1252 = new Uint8Array(PIECE * 2 + 10).fill(0x80);
    expect(decodePieces(chunkDecoder('windows-1252'), cp1252, false).join('')).toBe('€'.repeat(PIECE * 2 + 10));
  });

  it('gives one empty piece for no bytes, so the last feed still happens', () => {
    expect(decodePieces(chunkDecoder('utf-8'), new Uint8Array(0), false)).toEqual(['']);
  });

  it('fails on invalid UTF-8 in the last piece without handing on the pieces before it', () => {
    const bytes = new Uint8Array(PIECE * 3).fill(0x41);
    bytes[PIECE * 2 + 5] = 0xff;
    expect(() => decodePieces(chunkDecoder('utf-8'), bytes, false)).toThrow();
  });
});
