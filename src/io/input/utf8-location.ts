import { readSync } from 'node:fs';

/** Where a problem lies in a text file: the physical line (from 1) and the column in characters (from 1). */
export interface TextLocation {
  readonly line: number;
  readonly column: number;
  /** The first byte that is not UTF-8 there. */
  readonly byte: number;
}

const BLOCK_BYTES = 4 << 20;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * The length of the valid UTF-8 sequence starting at bytes[at], 0 when it is not one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut short by `end`).
 */
function sequenceLength(bytes: Uint8Array, at: number, end: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  if (at + length > end) return 0;
  const second = bytes[at + 1]!;
  if (second < low || second > high) return 0;
  for (let k = 2; k < length; k++) if ((bytes[at + k]! & 0xc0) !== 0x80) return 0;
  return length;
}

/** Bytes at the end of a block that decoded well as a stream but wait for the rest of their character. */
function waitingTail(block: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, block.length); back++) {
    const byte = block[block.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? back : 0;
  }
  return 0;
}

/**
 * Where the first bytes that are not UTF-8 lie among the file's first `end` bytes (a BOM of
 * `skip` bytes not counted in the column): the line counts line breaks as the CSV tokenizer does
 * (LF, CR LF, or CR alone), and the column counts the characters (UTF-16 units, as the tokenizer's
 * positions do) before them on their line. Undefined when they are all
 * valid. Reads the file from its start: only for an error message.
 */
export function locateInvalidUtf8(fd: number, end: number, skip = 0): TextLocation | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 1;
  let lineStart = skip;
  let afterReturn = false;
  // Line breaks as the CSV tokenizer counts them: LF, CR LF, or a CR alone (old Mac files).
  const breakAt = (byte: number, offset: number): void => {
    if (byte === NEWLINE) {
      if (!afterReturn) lines++;
      lineStart = offset + 1;
    } else if (byte === RETURN) {
      lines++;
      lineStart = offset + 1;
    }
    afterReturn = byte === RETURN;
  };
  let carried = new Uint8Array(0);
  for (let at = 0; at < end; ) {
    const block = new Uint8Array(Math.min(BLOCK_BYTES, end - at));
    const read = readSync(fd, block, 0, block.length, at);
    if (read === 0) break;
    const bytes = block.subarray(0, read);
    const last = at + read >= end;
    let failed = false;
    try {
      decoder.decode(bytes, { stream: !last });
    } catch {
      failed = true;
    }
    if (!failed) {
      for (let i = 0; i < read; i++) breakAt(bytes[i]!, at + i);
      carried = bytes.slice(read - waitingTail(bytes));
      at += read;
      continue;
    }
    // The first bad sequence, read from the start of the character the last block left waiting.
    const scanned = new Uint8Array(carried.length + read);
    scanned.set(carried);
    scanned.set(bytes, carried.length);
    const base = at - carried.length;
    let i = 0;
    for (;;) {
      const length = i < scanned.length ? sequenceLength(scanned, i, scanned.length) : 0;
      if (length === 0) break;
      // The carried bytes were counted with the block before.
      if (i >= carried.length) breakAt(scanned[i]!, base + i);
      i += length;
    }
    const bad = base + i;
    const before = new Uint8Array(bad - lineStart);
    readSync(fd, before, 0, before.length, lineStart);
    // A U+FEFF inside the file is a character of its line, not a mark to drop.
    return { line: lines, column: new TextDecoder('utf-8', { ignoreBOM: true }).decode(before).length + 1, byte: scanned[i] ?? 0 };
  }
  return undefined;
}
