/**
 * Columnar, dictionary-encoded table. Code 0 of every column means "missing";
 * dictionary[0] is therefore the empty string. Grouping is integer work and a
 * table moves to a worker thread as a handful of typed arrays.
 */
export type ColumnType = 'integer' | 'decimal' | 'date' | 'text' | 'empty';

export const MISSING_CODE = 0;

export interface Column {
  readonly name: string;
  /** One code per row; 0 = missing. */
  readonly codes: Uint32Array;
  /** dictionary[code] is the value; dictionary[0] === ''. */
  readonly dictionary: readonly string[];
  readonly type: ColumnType;
  /** Distinct non-missing values. */
  readonly distinct: number;
  readonly missing: number;
}

export interface Table {
  readonly rowCount: number;
  readonly columns: readonly Column[];
}

const INTEGER = /^[+-]?(0|[1-9]\d*)$/;
/** ISO 8601 dates and date-times as the readers write them (an Excel date cell arrives so; Parquet timestamps keep their fractions of a second). */
export const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?)?$/;
const DECIMAL = /^[+-]?(0|[1-9]\d*)?(\.\d+)?([eE][+-]?\d+)?$/;

/** Infers a column type from its dictionary. Codes with leading zeros stay text. */
export function inferType(dictionary: readonly string[]): ColumnType {
  if (dictionary.length <= 1) return 'empty';
  let date = true;
  for (let i = 1; i < dictionary.length && date; i++) date = ISO_DATE.test(dictionary[i]!);
  if (date) return 'date';
  let integer = true;
  for (let i = 1; i < dictionary.length; i++) {
    const value = dictionary[i]!;
    if (integer && INTEGER.test(value)) continue;
    integer = false;
    if (!DECIMAL.test(value) || value === '' || value === '.' || /^[+-]?$/.test(value) || !/\d/.test(value)) return 'text';
  }
  return integer ? 'integer' : 'decimal';
}

/** `missing`: how many codes are MISSING_CODE, when the caller counted them already (else counted here). */
export function makeColumn(name: string, codes: Uint32Array, dictionary: readonly string[], missing = countMissing(codes)): Column {
  return { name, codes, dictionary, type: inferType(dictionary), distinct: dictionary.length - 1, missing };
}

function countMissing(codes: Uint32Array): number {
  let missing = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i] === MISSING_CODE) missing++;
  return missing;
}

/** Builds a table from string rows; used by tests and small in-memory inputs. */
export function tableFromRows(header: readonly string[], rows: readonly (readonly string[])[], missing: readonly string[] = ['']): Table {
  const missingSet = new Set(missing);
  const columns = header.map((name, j) => {
    const dictionary = [''];
    const index = new Map<string, number>();
    const codes = new Uint32Array(rows.length);
    rows.forEach((row, i) => {
      const value = row[j] ?? '';
      if (missingSet.has(value)) return;
      let code = index.get(value);
      if (code === undefined) {
        code = dictionary.length;
        dictionary.push(value);
        index.set(value, code);
      }
      codes[i] = code;
    });
    return makeColumn(name, codes, dictionary);
  });
  return { rowCount: rows.length, columns };
}
