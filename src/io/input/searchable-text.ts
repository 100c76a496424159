import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { lazyRequire } from '../lazy-require.js';
import { parquetSearchableText } from './parquet-reader.js';

const sheetJs = lazyRequire<typeof import('xlsx')>('xlsx');

/** A file's text, or one sheet of a workbook (sheet: its name). */
export interface SearchablePart {
  readonly sheet: string | null;
  readonly text: string;
}

/**
 * A file of a release as text that can be searched for something that must not
 * be there: text files as they are, every sheet of a workbook cell by cell (the
 * zip's compressed XML cannot be searched), a Parquet file as its footer's strings, column names
 * and every distinct value (its pages are compressed), a PDF as its raw bytes — which
 * shows its metadata and uncompressed objects; its page text is glyph-coded
 * and checked through the report model it was drawn from.
 */
export function searchableText(path: string): SearchablePart[] {
  const ext = extname(path).toLowerCase();
  if (ext === '.parquet') return [{ sheet: null, text: parquetSearchableText(path) }];
  const bytes = readFileSync(path);
  if (ext === '.xlsx') {
    const XLSX = sheetJs();
    const workbook = XLSX.read(bytes, { type: 'buffer', cellFormula: false, cellHTML: false });
    return [
      { sheet: null, text: JSON.stringify(workbook.Props ?? {}) },
      ...workbook.SheetNames.map((name) => ({ sheet: name, text: `${name}\n${XLSX.utils.sheet_to_csv(workbook.Sheets[name]!, { blankrows: false })}` })),
    ];
  }
  return [{ sheet: null, text: bytes.toString(ext === '.pdf' ? 'latin1' : 'utf8') }];
}
