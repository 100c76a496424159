import { chunkDecoder } from './text-decoder.js';

/**
 * Text in a file that does not say its encoding (Stata before release 118, SAS transport): the
 * programs themselves wrote Windows-1252 (or Latin-1), others (R's haven, ReadStat) write UTF-8. A
 * value that is valid UTF-8 is read as UTF-8, any other as Windows-1252, so both read right.
 */
export function codePageText(): (b: Buffer) => string {
  // A value's leading U+FEFF is part of it: a byte order mark belongs at the start of a text file only.
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const fallback = chunkDecoder('windows-1252');
  return (b) => {
    try {
      return strict.decode(b);
    } catch {
      return fallback.decode(b, false);
    }
  };
}
