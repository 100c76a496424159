import { HashedFileWriter } from './hashed-file.js';
import { csvText } from './neutralize.js';
import { writeRowCells, type CompactTable } from './release-table.js';
import { encodeText, unencodable, UnencodableError, UTF8_BOM, type CsvEncoding } from './text-encoding.js';

/** How a CSV release is written: the encoding and the line ending (RFC 4180's CRLF by default). */
export interface CsvFormat {
  readonly delimiter: string;
  readonly encoding: CsvEncoding;
  readonly lineEnding: 'crlf' | 'lf';
}

export function quoteCsvField(value: string, delimiter: string): string {
  const needsQuotes = value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r');
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

/** RFC 4180's own format: UTF-8, CRLF. */
export function rfc4180(delimiter = ','): CsvFormat {
  return { delimiter, encoding: 'utf-8', lineEnding: 'crlf' };
}

/**
 * RFC 4180 output, every text cell neutralized against formula injection. A value Windows-1252
 * cannot write is refused before the file is opened (UnencodableError), never replaced.
 */
export function writeCsv(path: string, table: CompactTable, format: CsvFormat): { sha256: string; bytes: number } {
  const { delimiter, encoding } = format;
  const eol = format.lineEnding === 'lf' ? '\n' : '\r\n';
  const { columns } = table;
  if (encoding === 'windows-1252') {
    // Checked as written (controls and lone surrogates become U+FFFD, which Windows-1252 cannot hold
    // either), before the file is opened.
    for (const c of columns) {
      for (const v of [c.name, ...c.dictionary]) {
        const bad = unencodable(csvText(v));
        if (bad !== undefined) throw new UnencodableError(c.name, v, bad);
      }
    }
  }
  const out = new HashedFileWriter(path);
  if (encoding === 'utf-8-bom') out.write(UTF8_BOM);
  // Each dictionary entry is quoted, guarded and encoded once, with the delimiter or line end that
  // follows it in its column, not once per row; rows are then copied as bytes.
  const encode = (text: string): Uint8Array => encodeText(text, encoding);
  const last = columns.length - 1;
  const cells = columns.map((c, j) => {
    const after = encode(j === last ? eol : delimiter);
    return c.dictionary.map((v) => {
      const cell = encode(quoteCsvField(csvText(v), delimiter));
      const bytes = new Uint8Array(cell.length + after.length);
      bytes.set(cell);
      bytes.set(after, cell.length);
      return bytes;
    });
  });
  out.write(encode(columns.map((c) => quoteCsvField(csvText(c.name), delimiter)).join(delimiter) + eol));
  writeRowCells(out, table, cells);
  return out.close();
}
