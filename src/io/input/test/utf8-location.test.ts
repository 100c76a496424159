import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateInvalidUtf8 } from '../utf8-location.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-utf8-'));

function locate(bytes: Uint8Array): ReturnType<typeof locateInvalidUtf8> {
  const path = join(dir, 'f.txt');
  writeFileSync(path, bytes);
  const fd = openSync(path, 'r');
  try {
    return locateInvalidUtf8(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/** The brute-force answer: the longest prefix a strict decoder accepts, then its lines and columns. */
function bruteForce(bytes: Uint8Array): { line: number; column: number; byte: number } | undefined {
  const strict = new TextDecoder('utf-8', { fatal: true });
  const ok = (n: number): boolean => {
    try {
      strict.decode(bytes.subarray(0, n));
      return true;
    } catch {
      return false;
    }
  };
  if (ok(bytes.length)) return undefined;
  // The bad sequence starts after the longest prefix that ends on a whole character.
  let n = 0;
  for (let k = 0; k <= bytes.length; k++) if (ok(k)) n = k;
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, n));
  // Lines as the CSV tokenizer counts them: LF, CR LF or a lone CR each end one.
  const lines = text.split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines.at(-1)!.length + 1, byte: bytes[n]! };
}

describe('locating the first bytes that are not UTF-8', () => {
  it('agrees with a strict decoder on every prefix (brute force) for random text with bad bytes', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'é', '€', '😀', '\n', '\r', '\r\n', '\ufeff', ',', '"').map((t) => [...Buffer.from(t, 'utf8')]),
      fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x80, 0x80, 0x80], [0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const bytes = Uint8Array.from(pieces.flat());
        expect(locate(bytes)).toEqual(bruteForce(bytes));
      }),
      { numRuns: 400 },
    );
  });

  it('finds a bad sequence split across the 4 MB blocks it reads', () => {
    const bytes = new Uint8Array((4 << 20) + 10).fill(0x61);
    bytes[5] = 0x0a;
    // A three-byte lead at the block's last byte, whose continuation in the next block is not one.
    bytes[(4 << 20) - 1] = 0xe2;
    bytes[4 << 20] = 0x41;
    expect(locate(bytes)).toEqual({ line: 2, column: (4 << 20) - 1 - 6 + 1, byte: 0xe2 });
    // A valid character across the boundary, then a bad byte.
    bytes[4 << 20] = 0x82;
    bytes[(4 << 20) + 1] = 0xac;
    bytes[(4 << 20) + 3] = 0xfe;
    expect(locate(bytes)).toEqual({ line: 2, column: (4 << 20) - 1 - 6 + 3, byte: 0xfe });
  });
});
