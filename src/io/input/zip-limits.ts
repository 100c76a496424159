import { inflateRawSync } from 'node:zlib';
import { formatCount } from '../../common/format/numbers.js';

/**
 * The most XML a workbook may inflate to. SheetJS holds a parsed sheet in
 * memory at about ten times its XML, so this keeps a workbook under ~1.5 GB;
 * a table larger than this belongs in a CSV file, which is streamed.
 */
export const MAX_INFLATED_BYTES = 128 * 1024 * 1024;

/**
 * The most XML a release's own workbook may inflate to when verify reads it. Custos writes up to
 * Excel's 1,048,576 rows to a sheet (a million-row census release of ten columns is 357 MB of
 * XML), and the auditor's machine must hold the parsed sheet, several times its XML.
 */
export const MAX_AUDITED_INFLATED_BYTES = 512 * 1024 * 1024;

/**
 * The most cells a workbook's sheets may hold together, counted in their XML before the library
 * parses them (it keeps some 150 bytes per cell): a 1.7 MB workbook of 32 million one-digit cells
 * took 4.9 GB. A million-row release of ten columns holds ten million.
 */
export const MAX_WORKBOOK_CELLS = 1 << 24;

export class ZipLimitError extends Error {}

const LT = 0x3c;
const COLON = 0x3a;
const LETTER_C = 0x63;

/** Cell elements (<c …>, <c/>, or with a namespace prefix, <x:c …>) in a part's XML; every part is counted, wherever the workbook's relations put its sheets. */
function countCells(xml: Uint8Array): number {
  let cells = 0;
  for (let at = xml.indexOf(LT); at !== -1; at = xml.indexOf(LT, at + 1)) {
    let i = at + 1;
    // An optional prefix: letters and digits, then a colon.
    let j = i;
    while (j < xml.length && j - i < 16 && ((xml[j]! >= 0x30 && xml[j]! <= 0x39) || ((xml[j]! | 0x20) >= 0x61 && (xml[j]! | 0x20) <= 0x7a))) j++;
    if (j < xml.length && xml[j] === COLON && j > i) i = j + 1;
    if (xml[i] !== LETTER_C) continue;
    const next = xml[i + 1];
    if (next === 0x20 || next === 0x3e || next === 0x2f || next === 0x09 || next === 0x0a || next === 0x0d) cells++;
  }
  return cells;
}


const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Checks a zip archive (an .xlsx) before any library inflates it: the sizes its
 * directory declares must sum to at most `limit`, and every entry must inflate
 * to no more than it declares — a zip bomb that lies about its sizes is caught
 * while inflating one entry at a time, with the output capped at the declared
 * size, so memory stays bounded either way. `onPart` sees each part's name and
 * inflated bytes.
 */
export function checkZipLimits(bytes: Uint8Array, limit = MAX_INFLATED_BYTES, onPart?: (name: string, data: Uint8Array) => void): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The last end-of-directory record, as the workbook library finds it (searching back from the
  // end): a second record in the last bytes must not point the library at a directory never checked.
  let eocd = -1;
  for (let i = bytes.length - 4; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipLimitError('the zip directory is missing (a damaged or truncated file)');
  if (eocd + 22 > bytes.length || eocd + 22 + view.getUint16(eocd + 20, true) !== bytes.length) throw new ZipLimitError('the zip directory is damaged (its end record is not where it says it ends)');
  const entries = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) throw new ZipLimitError('the workbook uses ZIP64, which only workbooks far above the size limit need');
  let total = 0;
  let cells = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL) throw new ZipLimitError('the zip directory is damaged');
    const method = view.getUint16(offset + 10, true);
    const compressed = view.getUint32(offset + 20, true);
    const declared = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extra = view.getUint16(offset + 30, true);
    const comment = view.getUint16(offset + 32, true);
    const local = view.getUint32(offset + 42, true);
    total += declared;
    if (total > limit) throw new ZipLimitError(`its parts would inflate to more than ${limit / 1024 / 1024} MiB`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL) throw new ZipLimitError('a zip entry is damaged');
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressed > bytes.length) throw new ZipLimitError('a zip entry is truncated');
    // A deflated part holds at least its final block (2 bytes): a size of 0 would leave the library to inflate a stream no one checked.
    if (method === 8 && compressed === 0) throw new ZipLimitError('a compressed part declares no compressed bytes');
    let part: Uint8Array;
    if (method === 8) {
      try {
        const xml = inflateRawSync(bytes.subarray(start, start + compressed), { maxOutputLength: Math.max(1, declared) });
        cells += countCells(xml);
        part = xml;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ERR_BUFFER_TOO_LARGE') throw new ZipLimitError('a part inflates to more than its declared size (a zip bomb)');
        throw new ZipLimitError(`a part cannot be inflated (${(error as Error).message})`);
      }
    } else if (method !== 0) {
      throw new ZipLimitError(`a part uses compression method ${method}, which workbooks do not use`);
    } else {
      part = bytes.subarray(start, start + compressed);
      cells += countCells(part);
    }
    if (cells > MAX_WORKBOOK_CELLS) throw new ZipLimitError(`its sheets hold more than ${formatCount(MAX_WORKBOOK_CELLS)} cells`);
    // The part as the library will read it, for checks of what it holds (each part is inflated once).
    onPart?.(Buffer.from(bytes.buffer, bytes.byteOffset + offset + 46, nameLength).toString('utf8'), part);
    offset += 46 + nameLength + extra + comment;
  }
}
