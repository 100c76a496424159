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
  const name = basename(path);
  // Checked here, where lines are known: blank lines are skipped and quoted fields may span lines,
  // so a row's number is not its line, and the rest of the program knows rows only.
  const firstLines = new Map<string, number>();
  let firstLine = 0;
  const tokenizer = new CsvTokenizer(sniffDelimiter(text.slice(0, 65536)), {
    record: (fields, count, line) => {
      if (count === 1 && fields[0] === '') return;
      const depth = rows[0]?.length;
      if (depth === undefined) firstLine = line;
      else if (count !== depth) throw new InputError(`this row of the hierarchy has ${count} levels where the first (line ${firstLine}) has ${depth}`, name, line);
      const value = fields[0]!;
      const earlier = firstLines.get(value);
      if (earlier !== undefined) throw new InputError(`the value "${value}" appears again in the hierarchy (first on line ${earlier})`, name, line);
      firstLines.set(value, line);
      rows.push(fields.slice(0, count));
    },
  });
  try {
    tokenizer.feed(text, true);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InputError(error.message, name, error.line, error.column);
    throw error;
  }
  // One column generalizes nothing: such a file (any text file, a list of values) was taken for a
  // hierarchy of one level and the column was then released as it is.
  if (rows[0]?.length === 1) {
    throw new InputError(
      'a hierarchy needs at least two columns: one row per value, the value then its generalizations, coarsest last (e.g. "34;30-39;*"); this file has one column (or a delimiter other than , ; tab |)',
      name,
      firstLine,
    );
  }
  return rows;
}
