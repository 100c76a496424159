import { chunkDecoder } from '../input/text-decoder.js';

/** The encodings a CSV release can be written in: Excel opens UTF-8 with a BOM, older Excel in Western Europe Windows-1252. */
export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252';

/** A character the chosen encoding cannot write, with where it is. */
export class UnencodableError extends Error {
  constructor(
    readonly column: string,
    readonly value: string,
    readonly character: string,
  ) {
    super(`“${value}” in column “${column}” holds “${character}” (U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}), which Windows-1252 cannot write; choose UTF-8`);
  }
}

/** Windows-1252's byte for each character it can write, derived from the decoder the readers use (so a release reads back as written). */
const WINDOWS_1252: ReadonlyMap<string, number> = (() => {
  const decoder = chunkDecoder('windows-1252');
  const map = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) map.set(decoder.decode(Uint8Array.of(byte), false), byte);
  return map;
})();

/** The first character of `text` that Windows-1252 cannot write, or undefined. */
export function unencodable(text: string): string | undefined {
  for (const ch of text) if (!WINDOWS_1252.has(ch)) return ch;
  return undefined;
}

/** Text as bytes in the encoding (the BOM is written once, by the caller, at the start of the file). */
export function encodeText(text: string, encoding: CsvEncoding): Uint8Array {
  if (encoding !== 'windows-1252') return Buffer.from(text, 'utf8');
  const out = new Uint8Array(text.length);
  let i = 0;
  for (const ch of text) {
    const byte = WINDOWS_1252.get(ch);
    if (byte === undefined) throw new RangeError(`“${ch}” cannot be written in Windows-1252`);
    out[i++] = byte;
  }
  return out.subarray(0, i);
}

export const UTF8_BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
