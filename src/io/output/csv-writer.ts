import { HashedFileWriter } from './hashed-file.js';
import { csvText } from './neutralize.js';
import type { ReleaseTable } from './release-table.js';
import { encodeText, unencodable, UnencodableError, UTF8_BOM, type CsvEncoding } from './text-encoding.js';

/** How a CSV release is written: the encoding and the line ending (RFC 4180's CRLF by default). */
export interface CsvFormat {
  readonly delimiter: string;
  readonly encoding: CsvEncoding;
  readonly lineEnding: 'crlf' | 'lf';
}

const ROWS_PER_WRITE = 16384;

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
export function writeCsv(path: string, table: ReleaseTable, format: CsvFormat): { sha256: string; bytes: number } {
  const { delimiter, encoding } = format;
  const eol = format.lineEnding === 'lf' ? '\n' : '\r\n';
  const { columns } = table;
  if (encoding === 'windows-1252') {
    for (const c of columns) {
      for (const v of [c.name, ...c.dictionary]) {
        const bad = unencodable(v);
        if (bad !== undefined) throw new UnencodableError(c.name, v, bad);
      }
    }
  }
  const out = new HashedFileWriter(path);
  const write = (text: string): void => out.write(encodeText(text, encoding));
  if (encoding === 'utf-8-bom') out.write(UTF8_BOM);
  // Each dictionary entry is formatted once, not once per row.
  const formatted = columns.map((c) => c.dictionary.map((v) => quoteCsvField(csvText(v), delimiter)));
  write(columns.map((c) => quoteCsvField(csvText(c.name), delimiter)).join(delimiter) + eol);
  const lines: string[] = [];
  const cells = new Array<string>(columns.length);
  for (let start = 0; start < table.rowCount; start += ROWS_PER_WRITE) {
    const end = Math.min(table.rowCount, start + ROWS_PER_WRITE);
    lines.length = 0;
    for (let r = start; r < end; r++) {
      for (let j = 0; j < columns.length; j++) {
        const c = columns[j]!;
        cells[j] = formatted[j]![c.codes[c.via ? c.via[r]! : r]!]!;
      }
      lines.push(cells.join(delimiter));
    }
    write(lines.join(eol) + eol);
  }
  return out.close();
}
