import { codePageText } from './code-page-text.js';
import { chunkDecoder } from './text-decoder.js';
import { isReplacement, trimTrailing } from '../../common/trim-ends.js';

/**
 * The text decoder for a SAS data set's encoding byte (header offset 70), from SAS's list of
 * encodings as ReadStat tabulates it, as WHATWG labels Node decodes. Code 0 (and 204, "any") says
 * nothing: read like the other files that do not name their encoding (UTF-8 when valid, else
 * Windows-1252). A code Node cannot decode (EBCDIC, DOS code pages) is refused by name, never guessed.
 */
const SAS_ENCODINGS: ReadonlyMap<number, { readonly sas: string; readonly label?: string }> = new Map([
  [20, { sas: 'UTF-8', label: 'utf-8' }],
  [28, { sas: 'US-ASCII', label: 'windows-1252' }],
  [29, { sas: 'ISO-8859-1 (latin1)', label: 'windows-1252' }],
  [30, { sas: 'ISO-8859-2 (latin2)', label: 'iso-8859-2' }],
  [31, { sas: 'ISO-8859-3 (latin3)', label: 'iso-8859-3' }],
  [32, { sas: 'ISO-8859-4 (latin4)', label: 'iso-8859-4' }],
  [33, { sas: 'ISO-8859-5 (cyrillic)', label: 'iso-8859-5' }],
  [34, { sas: 'ISO-8859-6 (arabic)', label: 'iso-8859-6' }],
  [35, { sas: 'ISO-8859-7 (greek)', label: 'iso-8859-7' }],
  [36, { sas: 'ISO-8859-8 (hebrew)', label: 'iso-8859-8' }],
  [37, { sas: 'ISO-8859-9 (latin5)', label: 'windows-1254' }],
  [38, { sas: 'ISO-8859-10 (latin6)', label: 'iso-8859-10' }],
  [39, { sas: 'ISO-8859-11 (thai)', label: 'windows-874' }],
  [40, { sas: 'ISO-8859-15 (latin9)', label: 'iso-8859-15' }],
  [41, { sas: 'CP437' }],
  [42, { sas: 'CP850' }],
  [43, { sas: 'CP852' }],
  [44, { sas: 'CP857' }],
  [45, { sas: 'CP858' }],
  [46, { sas: 'CP862' }],
  [47, { sas: 'CP864' }],
  [48, { sas: 'CP865' }],
  [49, { sas: 'CP866', label: 'ibm866' }],
  [50, { sas: 'CP869' }],
  [51, { sas: 'CP874', label: 'windows-874' }],
  [60, { sas: 'Windows-1250 (wlatin2)', label: 'windows-1250' }],
  [61, { sas: 'Windows-1251 (wcyrillic)', label: 'windows-1251' }],
  [62, { sas: 'Windows-1252 (wlatin1)', label: 'windows-1252' }],
  [63, { sas: 'Windows-1253 (wgreek)', label: 'windows-1253' }],
  [64, { sas: 'Windows-1254 (wturkish)', label: 'windows-1254' }],
  [65, { sas: 'Windows-1255 (whebrew)', label: 'windows-1255' }],
  [66, { sas: 'Windows-1256 (warabic)', label: 'windows-1256' }],
  [67, { sas: 'Windows-1257 (wbaltic)', label: 'windows-1257' }],
  [68, { sas: 'Windows-1258 (wvietnamese)', label: 'windows-1258' }],
  [69, { sas: 'MacRoman', label: 'macintosh' }],
  [90, { sas: 'EBCDIC 870' }],
  [118, { sas: 'CP950 (Big5)', label: 'big5' }],
  [119, { sas: 'EUC-TW' }],
  [123, { sas: 'Big5', label: 'big5' }],
  [125, { sas: 'GB18030 (euc-cn)', label: 'gb18030' }],
  [126, { sas: 'Windows-936 (zwin)', label: 'gbk' }],
  [134, { sas: 'EUC-JP', label: 'euc-jp' }],
  [136, { sas: 'CP932 (ms-932)', label: 'shift_jis' }],
  [138, { sas: 'Shift-JIS', label: 'shift_jis' }],
  [140, { sas: 'EUC-KR', label: 'euc-kr' }],
  [141, { sas: 'CP949 (kpce)', label: 'euc-kr' }],
  [142, { sas: 'CP949 (kwin)', label: 'euc-kr' }],
  [167, { sas: 'ISO-2022-JP', label: 'iso-2022-jp' }],
  [205, { sas: 'GB18030', label: 'gb18030' }],
  [227, { sas: 'ISO-8859-14', label: 'iso-8859-14' }],
  [242, { sas: 'ISO-8859-13', label: 'iso-8859-13' }],
  [246, { sas: 'MacCyrillic', label: 'x-mac-cyrillic' }],
]);

export type SasTextDecoder = (bytes: Uint8Array) => string;

/**
 * The decoder for the file's text, or a plain reason it cannot be had. Decoding is lenient: a
 * fixed-width value may end inside a multi-byte character; what cannot be decoded becomes U+FFFD
 * and a trailing one is dropped, as the SPSS reader does.
 */
export function sasTextDecoder(code: number): SasTextDecoder | { readonly refused: string } {
  if (code === 0 || code === 204) {
    const decode = codePageText();
    return (bytes) => decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  const known = SAS_ENCODINGS.get(code);
  if (!known) return { refused: `an encoding SAS numbers ${code}, which Custos does not know` };
  if (!known.label) return { refused: `the encoding ${known.sas} (SAS code ${code}), which Custos cannot decode` };
  // Node decodes the label windows-1252 as Latin-1 (no € in 0x80–0x9F); the project's decoder does not.
  if (known.label === 'windows-1252') {
    const cp1252 = chunkDecoder('windows-1252');
    return (bytes) => cp1252.decode(bytes, false);
  }
  let decoder: TextDecoder;
  try {
    // A value's leading U+FEFF is part of it, not a byte order mark.
    decoder = new TextDecoder(known.label, { ignoreBOM: true });
  } catch {
    return { refused: `the encoding ${known.sas} (SAS code ${code}), which this build of Custos cannot decode` };
  }
  return (bytes) => trimTrailing(decoder.decode(bytes), isReplacement);
}
