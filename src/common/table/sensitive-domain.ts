import { MISSING_CODE, type Column } from './table.js';
import { formatCount } from '../format/numbers.js';

/**
 * The domain {x_1..x_m} of a sensitive attribute and the map from the column's
 * dictionary codes to domain indices. The mechanism, the estimator and the test
 * must all use this one m.
 */
export interface SensitiveDomain {
  readonly column: string;
  readonly values: readonly string[];
  /** domainIndexOfCode[code] for every dictionary code of the column (code 0 unused). */
  readonly domainIndexOfCode: Int32Array;
  readonly declared: boolean;
}

export class DomainError extends Error {}

/**
 * Records whose value lies outside a declared domain: a problem of the input (its records do not
 * fit the public list), never dropped or mapped silently. Holds the facts the message names.
 */
export class OutsideDomainError extends DomainError {
  constructor(
    readonly column: string,
    /** How many records hold a value outside the domain. */
    readonly records: number,
    /** The first such record, counted from 1 among the data rows. */
    readonly firstRecord: number,
    readonly values: readonly string[],
  ) {
    super(
      `${formatCount(records)} record(s) of "${column}" hold ${values.length === 1 ? 'a value' : `${values.length} values`} outside its declared domain ` +
        `(${values.slice(0, 5).map((v) => JSON.stringify(v)).join(', ')}${values.length > 5 ? ', …' : ''}), the first in data record ${formatCount(firstRecord)}: ` +
        'add the value(s) to the domain if they are public, or correct or remove those records; Custos does not drop or recode them',
    );
  }
}

/**
 * Checks a declared list of a column's values: no value twice, and every value
 * of the data among them. Returns the position in the list of each dictionary
 * code (code 0, missing, gets −1).
 */
export function declaredPositions(column: Column, declared: readonly string[]): Int32Array {
  if (new Set(declared).size !== declared.length) throw new DomainError(`the declared domain of "${column.name}" lists a value twice`);
  const position = new Map(declared.map((v, i) => [v, i]));
  const positions = new Int32Array(column.dictionary.length).fill(-1);
  const outside: string[] = [];
  for (let code = 1; code < column.dictionary.length; code++) {
    const index = position.get(column.dictionary[code]!);
    if (index === undefined) outside.push(column.dictionary[code]!);
    else positions[code] = index;
  }
  if (outside.length > 0) {
    // The dictionary may hold values no remaining record carries (records excluded before): count the records.
    let records = 0;
    let first = -1;
    const held = new Set<number>();
    for (let i = 0; i < column.codes.length; i++) {
      const code = column.codes[i]!;
      if (code !== MISSING_CODE && positions[code] === -1) {
        records++;
        held.add(code);
        if (first < 0) first = i;
      }
    }
    if (records > 0) throw new OutsideDomainError(column.name, records, first + 1, [...held].map((code) => column.dictionary[code]!));
  }
  return positions;
}

export function sensitiveDomain(column: Column, declared?: readonly string[]): SensitiveDomain {
  const values = declared ? [...declared] : column.dictionary.slice(1);
  if (values.length < 2) {
    throw new DomainError(`the sensitive column "${column.name}" has ${values.length} distinct value(s); at least 2 are needed`);
  }
  const domainIndexOfCode = declaredPositions(column, values);
  if (column.missing > 0) {
    const row = column.codes.indexOf(MISSING_CODE);
    throw new DomainError(
      `the sensitive column "${column.name}" has ${column.missing} missing value(s) (first at data row ${row + 1}); ` +
        'every record needs a sensitive value: set input.missingSensitive to "category" (a value of their own) or "exclude" (left out), fill them in, or declare fewer missing-value tokens',
    );
  }
  return { column: column.name, values, domainIndexOfCode, declared: declared !== undefined };
}

/** The sensitive column as domain indices, one per row. */
export function domainValues(column: Column, domain: SensitiveDomain): Uint32Array {
  const out = new Uint32Array(column.codes.length);
  for (let i = 0; i < out.length; i++) out[i] = domain.domainIndexOfCode[column.codes[i]!]!;
  return out;
}
