import { own } from '../../common/job/names.js';
import { detectDateFormat, parseDate, NOT_A_DATE, type DateDetection, type DateFormat, type DateReading } from '../../common/table/date-text.js';
import { makeColumn, type Column } from '../../common/table/table.js';
import type { ImportedTable } from './import-types.js';
import { InputError } from './input-error.js';

/** A column whose dates read both day first and month first: the job must say which (input.dates). */
export interface AmbiguousDates {
  readonly column: string;
  readonly formats: readonly DateFormat[];
}

/** A column read as dates, and from which format. */
export interface DateColumnRead {
  readonly column: string;
  readonly format: DateFormat;
  /** Whether the format was stated in the job (input.dates) or found in the values. */
  readonly stated: boolean;
}

/** A column most of whose values are dates in one format, left as text: the values that are not, with the line each is first on (0: not known). */
export interface PartlyDates {
  readonly column: string;
  readonly format: DateFormat;
  readonly unmatched: readonly { readonly value: string; readonly line: number }[];
  readonly count: number;
}

export interface DatedTable {
  readonly imported: ImportedTable;
  readonly read: readonly DateColumnRead[];
  readonly ambiguous: readonly AmbiguousDates[];
  readonly partial: readonly PartlyDates[];
}

/**
 * Dates typed as text made ISO dates, the form the date hierarchy and every reader of typed dates
 * use, so a column mixing Excel date cells with "14.03.2021" holds one kind of value. A column is
 * converted when the job states its format (input.dates), or when every value is a date in one
 * format; `wanted` names the columns that must be dates (a date hierarchy): one whose values are
 * mostly dates in one format is then converted with it, and a value that is not is refused. A value
 * that does not fit a format the job states or a date hierarchy needs is an input problem naming
 * its line, column and value. A column whose day and month can be read either way is returned as
 * ambiguous, unconverted.
 */
export function readDateColumns(imported: ImportedTable, file: string, stated: Readonly<Record<string, DateReading>> | undefined, wanted: ReadonlySet<string>): DatedTable {
  const read: DateColumnRead[] = [];
  const ambiguous: AmbiguousDates[] = [];
  const partial: PartlyDates[] = [];
  let changed = false;
  const columns = imported.table.columns.map((column, j): Column => {
    const reading = stated ? own(stated, column.name) : undefined;
    if (reading === NOT_A_DATE) return column;
    let format: DateFormat | undefined = reading;
    let detected: DateDetection | undefined;
    if (!format) {
      detected = detectDateFormat(column.dictionary);
      if (detected?.kind === 'ambiguous') {
        ambiguous.push({ column: column.name, formats: detected.formats });
        return column;
      }
      if (detected?.kind === 'date' || (detected?.kind === 'partial' && wanted.has(column.name))) format = detected.format;
      else if (detected?.kind === 'partial') {
        const lines = imported.firstLines?.[j];
        const unmatched = detected.unmatched.map((value) => ({ value, line: lines?.[column.dictionary.indexOf(value)] ?? 0 }));
        partial.push({ column: column.name, format: detected.format, unmatched, count: detected.count });
      }
    }
    if (!format) return column;
    const converted = convertColumn(column, format, (value, code) => {
      const why = reading ? `the form input.dates.${column.name} gives` : `the form of the column's other dates, and its date hierarchy needs every value to be a date`;
      return notADate(imported, file, j, code, `"${value}" in column "${column.name}" is not a date written ${format}, ${why}: correct the value, or add it to the missing-value codes (input.missing)`);
    });
    read.push({ column: column.name, format, stated: reading !== undefined });
    if (converted === column) return column;
    changed = true;
    return converted;
  });
  if (!changed) return { imported, read, ambiguous, partial };
  // The lines were the dictionaries' as read: they name nothing in the converted columns.
  const { firstLines: _lines, ...rest } = imported;
  return { imported: { ...rest, table: { ...imported.table, columns } }, read, ambiguous, partial };
}

/** The column with each value as an ISO date; two texts of one day (a date cell and "14.03.2021") become one value. */
function convertColumn(column: Column, format: DateFormat, refuse: (value: string, code: number) => Error): Column {
  const dictionary = [''];
  const index = new Map<string, number>();
  const mapping = new Uint32Array(column.dictionary.length);
  let same = true;
  for (let code = 1; code < column.dictionary.length; code++) {
    const value = column.dictionary[code]!;
    const date = parseDate(value, format);
    if (date === undefined) throw refuse(value, code);
    if (date !== value) same = false;
    let target = index.get(date);
    if (target === undefined) {
      target = dictionary.length;
      dictionary.push(date);
      index.set(date, target);
    }
    mapping[code] = target;
  }
  if (same) return column;
  const codes = new Uint32Array(column.codes.length);
  for (let i = 0; i < codes.length; i++) codes[i] = mapping[column.codes[i]!]!;
  return makeColumn(column.name, codes, dictionary);
}

/** The refusal of one value, at its line where the reader knows it (delimited text, a sheet's row), else by its record. */
function notADate(imported: ImportedTable, file: string, j: number, code: number, message: string): InputError {
  const line = imported.firstLines?.[j]?.[code];
  const context = { format: imported.format, ...(imported.sheet !== undefined ? { sheet: imported.sheet, sheets: imported.sheets ?? [imported.sheet] } : {}) };
  if (line) return new InputError(message, file, line, j + 1, context);
  const codes = imported.table.columns[j]!.codes;
  const row = codes.indexOf(code);
  return new InputError(`record ${row + 1}: ${message}`, file, undefined, undefined, context);
}
