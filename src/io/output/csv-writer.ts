import { HashedFileWriter } from './hashed-file.js';
import { csvText } from './neutralize.js';
import type { ReleaseTable } from './release-table.js';

const ROWS_PER_WRITE = 16384;

export function quoteCsvField(value: string, delimiter: string): string {
  const needsQuotes = value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r');
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

/** RFC 4180 output (CRLF line ends, UTF-8), every text cell neutralized against formula injection. */
export function writeCsv(path: string, table: ReleaseTable, delimiter: string): { sha256: string; bytes: number } {
  const out = new HashedFileWriter(path);
  const { columns } = table;
  // Each dictionary entry is formatted once, not once per row.
  const formatted = columns.map((c) => c.dictionary.map((v) => quoteCsvField(csvText(v), delimiter)));
  out.write(columns.map((c) => quoteCsvField(csvText(c.name), delimiter)).join(delimiter) + '\r\n');
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
    out.write(lines.join('\r\n') + '\r\n');
  }
  return out.close();
}
