import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Table } from '../../common/table/table.js';
import type { ImportOptions } from './import-types.js';
import { parquetSearchableText } from './parquet-reader.js';
import { pdfText } from './pdf-text.js';
import { readWorkbookSheets } from './xlsx-reader.js';

/** A file's text, or one sheet of a workbook (sheet: its name). */
export interface SearchablePart {
  readonly sheet: string | null;
  readonly text: string;
  /** A workbook's sheet as a table, from the same parse as its text (throws when it is not one). */
  readonly table?: () => Table;
  /** A PDF's shown text alone (the end of `text`, without the raw bytes it begins with). */
  readonly shown?: string;
}

/**
 * A file of a release as text that can be searched for something that must not
 * be there: text files as they are, every sheet of a workbook cell by cell (the
 * zip's compressed XML cannot be searched), a Parquet file as its footer's strings, column names
 * and every distinct value (its pages are compressed), a PDF as its raw bytes — which
 * shows its uncompressed objects — followed by its text as pdf-text.ts reads it back (each
 * page's glyph codes through its fonts' ToUnicode maps, and the metadata strings).
 * A workbook is read once, within the reader's limits (`workbookOptions.workbookLimit` for its
 * zip), and each sheet can also be had as a table read with `workbookOptions`.
 */
export function searchableText(path: string, workbookOptions: ImportOptions = { missing: [], onBadRow: 'error' }): SearchablePart[] {
  const ext = extname(path).toLowerCase();
  if (ext === '.parquet') return [{ sheet: null, text: parquetSearchableText(path) }];
  if (ext === '.xlsx') {
    const workbook = readWorkbookSheets(path, workbookOptions);
    return [{ sheet: null, text: workbook.properties }, ...workbook.sheets.map((s) => ({ sheet: s.name, text: `${s.name}\n${s.text}`, table: s.table }))];
  }
  const bytes = readFileSync(path);
  if (ext === '.pdf') {
    const shown = pdfText(bytes);
    return [{ sheet: null, text: `${bytes.toString('latin1')}\n${shown}`, shown }];
  }
  return [{ sheet: null, text: bytes.toString('utf8') }];
}
