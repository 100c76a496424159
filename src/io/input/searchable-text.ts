import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { lazyRequire } from '../lazy-require.js';
import { parquetSearchableText } from './parquet-reader.js';
import { pdfText } from './pdf-text.js';

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
 * shows its uncompressed objects — followed by its text as pdf-text.ts reads it back (each
 * page's glyph codes through its fonts' ToUnicode maps, and the metadata strings).
 */
export function searchableText(path: string): SearchablePart[] {
  const ext = extname(path).toLowerCase();
  if (ext === '.parquet') return [{ sheet: null, text: parquetSearchableText(path) }];
  const bytes = readFileSync(path);
  if (ext === '.xlsx') {
    const XLSX = sheetJs();
    // Dense: a million-row sheet kept as keyed cells took minutes and gigabytes; rows of cells give the same text.
    const workbook = XLSX.read(bytes, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false });
    return [
      { sheet: null, text: JSON.stringify(workbook.Props ?? {}) },
      ...workbook.SheetNames.map((name) => ({ sheet: name, text: `${name}\n${XLSX.utils.sheet_to_csv(workbook.Sheets[name]!, { blankrows: false })}` })),
    ];
  }
  if (ext === '.pdf') return [{ sheet: null, text: `${bytes.toString('latin1')}\n${pdfText(bytes)}` }];
  return [{ sheet: null, text: bytes.toString('utf8') }];
}
