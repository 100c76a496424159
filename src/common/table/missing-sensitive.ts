import { makeColumn, MISSING_CODE, type Column, type Table } from './table.js';

/** How missing values of the sensitive columns are treated before a mechanism sees the table. */
export type MissingSensitive = 'error' | 'category' | 'exclude';

/** The label a missing value gets as a category of its own; never one of the column's values. */
export function missingLabel(column: Column): string {
  const taken = new Set(column.dictionary);
  let label = '(missing)';
  for (let i = 2; taken.has(label); i++) label = `(missing ${i})`;
  return label;
}

/** The column with its missing values as one more value (a category of its own). */
export function missingAsCategory(column: Column): Column {
  if (column.missing === 0) return column;
  const dictionary = [...column.dictionary, missingLabel(column)];
  const label = dictionary.length - 1;
  const codes = Uint32Array.from(column.codes, (code) => (code === MISSING_CODE ? label : code));
  return makeColumn(column.name, codes, dictionary);
}

/**
 * The rows where `keep` is 1, every dictionary compacted to the values those rows still hold (in
 * their order): a value only excluded records held is not a value of the table any more.
 */
export function keepRows(table: Table, keep: Uint8Array): Table {
  let rowCount = 0;
  for (let r = 0; r < table.rowCount; r++) rowCount += keep[r]!;
  const columns = table.columns.map((column) => {
    const used = new Uint8Array(column.dictionary.length);
    for (let r = 0; r < table.rowCount; r++) if (keep[r]) used[column.codes[r]!] = 1;
    const remap = new Uint32Array(column.dictionary.length);
    const dictionary = [''];
    for (let code = 1; code < column.dictionary.length; code++) {
      if (!used[code]) continue;
      remap[code] = dictionary.length;
      dictionary.push(column.dictionary[code]!);
    }
    const codes = new Uint32Array(rowCount);
    for (let r = 0, i = 0; r < table.rowCount; r++) if (keep[r]) codes[i++] = remap[column.codes[r]!]!;
    return makeColumn(column.name, codes, dictionary);
  });
  return { rowCount, columns };
}

/**
 * Applies the treatment to the named sensitive columns: 'category' makes each
 * missing value a value of its own, 'exclude' drops the records with a missing
 * sensitive value (and says how many), 'error' leaves the table as it is (the
 * mechanism then refuses missing sensitive values, naming the first).
 */
export function treatMissingSensitive(table: Table, sensitive: readonly string[], treatment: MissingSensitive): { readonly table: Table; readonly excluded: number } {
  const targets = table.columns.filter((c) => sensitive.includes(c.name) && c.missing > 0);
  if (treatment === 'error' || targets.length === 0) return { table, excluded: 0 };
  if (treatment === 'category') return { table: { rowCount: table.rowCount, columns: table.columns.map((c) => (targets.includes(c) ? missingAsCategory(c) : c)) }, excluded: 0 };
  const keep = new Uint8Array(table.rowCount).fill(1);
  for (const c of targets) for (let r = 0; r < table.rowCount; r++) if (c.codes[r] === MISSING_CODE) keep[r] = 0;
  const filtered = keepRows(table, keep);
  return { table: filtered, excluded: table.rowCount - filtered.rowCount };
}
