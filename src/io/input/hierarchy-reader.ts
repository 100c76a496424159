import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CsvSyntaxError, CsvTokenizer } from './csv-tokenizer.js';
import { sniffDelimiter } from './delimiter.js';
import { checkRegularFile, describeErrno } from './file-kind.js';
import { InputError } from './input-error.js';

/** Reads an ARX hierarchy CSV (no header; one row per value, successive columns coarser). */
export function readHierarchyRows(path: string): string[][] {
  // A hierarchy is an input like the data: a FIFO named here would block the run.
  checkRegularFile(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new InputError(`cannot open the hierarchy: ${describeErrno((error as NodeJS.ErrnoException).code)}`, basename(path));
  }
  const rows: string[][] = [];
  const tokenizer = new CsvTokenizer(sniffDelimiter(text.slice(0, 65536)), {
    record: (fields, count) => {
      if (count === 1 && fields[0] === '') return;
      rows.push(fields.slice(0, count));
    },
  });
  try {
    tokenizer.feed(text, true);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InputError(error.message, basename(path), error.line, error.column);
    throw error;
  }
  return rows;
}
