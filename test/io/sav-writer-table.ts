import type { VariableMetadata } from '../../src/io/input/import-types.js';
import { compactReleaseTable, type CompactTable } from '../../src/io/output/release-table.js';

/** A release exercising every form the SPSS writer chooses, with names SPSS does not accept as they are. */
export function savWriterTable(): { table: CompactTable; metadata: Map<string, VariableMetadata> } {
  const rows = [
    ['1', 'Adm-clerical', '34', 'Zürich', '2024-01-15', '2024-01-15T08:30:00', '4250.5', '[20-30)', ''],
    ['2', 'Managers', '51', '', '2024-02-29', '', '', '*', 'x'],
    ['3', 'Adm-clerical', '', 'Zürich', '1999-12-31', '1999-12-31T23:59:59', '3100', '[30-40)', 'y'],
    ['4', 'Managers', '28', '  Basel', '2020-07-04', '2020-07-04T00:00:00', '-0.125', '*', ''],
  ];
  const names = ['id', 'occupation', 'age', 'region', 'visit', 'seen at', 'salary-class', 'AND', '__proto__'];
  const numeric = [true, false, true, false, false, false, true, false, false];
  const columns = names.map((name, j) => {
    const dictionary: string[] = [];
    const index = new Map<string, number>();
    const codes = new Uint32Array(rows.length);
    rows.forEach((row, r) => {
      const value = row[j]!;
      if (!index.has(value)) index.set(value, dictionary.push(value) - 1);
      codes[r] = index.get(value)!;
    });
    return { name, dictionary, codes, via: null, numeric: numeric[j]! };
  });
  const metadata = new Map<string, VariableMetadata>([
    ['occupation', { name: 'occupation', label: 'Occupation (ISCO major group)', valueLabels: [{ code: '1', label: 'Managers' }, { code: '2', label: 'Professionals' }, { code: '3', label: 'Adm-clerical' }], declaredMissing: 0 }],
    ['visit', { name: 'visit', valueLabels: [], declaredMissing: 0, dates: 'date' }],
    ['seen at', { name: 'seen at', label: 'When the visit began', valueLabels: [], declaredMissing: 0, dates: 'datetime' }],
  ]);
  return { table: compactReleaseTable({ rowCount: rows.length, columns }), metadata };
}

/** The table's rows as text, the values every reading of a written file must give back. */
export function releasedRows(): string[][] {
  const { table } = savWriterTable();
  return Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => c.dictionary[c.codes[r]!]!));
}
