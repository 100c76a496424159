import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { readCsv } from '../../src/io/input/csv-reader.js';
import type { ImportOptions } from '../../src/io/input/import-types.js';
import { nameColumns, renamedColumnsWarning } from '../../src/io/input/table-builder.js';
import { readXlsx } from '../../src/io/input/xlsx-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-header-'));
let counter = 0;
function file(content: string | Buffer, ext = '.csv'): string {
  const path = join(dir, `f${counter++}${ext}`);
  writeFileSync(path, content);
  return path;
}
const defaults: ImportOptions = { missing: [''], onBadRow: 'error' };

describe('header names that are empty or repeated', () => {
  it('an empty name becomes column_<n> and a repeated one <name>_2, <name>_3, every one listed', () => {
    expect(nameColumns(['', 'a', 'b'])).toEqual({ names: ['column_1', 'a', 'b'], renamed: [{ column: 1, from: '', to: 'column_1' }] });
    expect(nameColumns(['dup', 'dup', ' dup ', 'x'])).toEqual({
      names: ['dup', 'dup_2', 'dup_3', 'x'],
      renamed: [
        { column: 2, from: 'dup', to: 'dup_2' },
        { column: 3, from: 'dup', to: 'dup_3' },
      ],
    });
    expect(nameColumns(['a', 'b']).renamed).toEqual([]);
  });

  it('a made-up name never takes a name the header gives another column, wherever that column is', () => {
    // column_1 and dup_2 are the header's own names (later in the row): the made-up ones count on.
    const { names, renamed } = nameColumns(['', 'dup', 'dup', 'column_1', 'dup_2']);
    expect(names).toEqual(['column_1_2', 'dup', 'dup_3', 'column_1', 'dup_2']);
    expect(new Set(names).size).toBe(names.length);
    expect(renamed.map((r) => r.to)).toEqual(['column_1_2', 'dup_3']);
  });

  it('the names are unique for any header (property over small alphabets)', () => {
    const alphabet = ['', 'a', 'a_2', 'column_1', 'column_2', ' a', 'b'];
    for (let seed = 0; seed < 2000; seed++) {
      const header = Array.from({ length: 1 + (seed % 6) }, (_, j) => alphabet[(seed * 7 + j * 13 + ((seed >> 3) % 5)) % alphabet.length]!);
      const { names, renamed } = nameColumns(header);
      expect(new Set(names).size, JSON.stringify(header)).toBe(names.length);
      // A column the header names uniquely keeps its name.
      header.forEach((h, j) => {
        const t = h.trim();
        if (t !== '' && header.findIndex((o) => o.trim() === t) === j) expect(names[j]).toBe(t);
      });
      expect(renamed.length).toBe(names.filter((n, j) => n !== header[j]!.trim()).length);
    }
  });

  it('a pandas to_csv file (empty first header over the index) is read with the index as column_1, and the warning names it', () => {
    const imported = readCsv(file(',age,sex\n0,31,F\n1,45,M\n'), defaults);
    expect(imported.table.columns.map((c) => c.name)).toEqual(['column_1', 'age', 'sex']);
    expect(imported.table.columns[0]!.dictionary.slice(1)).toEqual(['0', '1']);
    expect(imported.renamedColumns).toEqual([{ column: 1, from: '', to: 'column_1' }]);
    expect(renamedColumnsWarning(imported.renamedColumns!)).toBe(
      'The header has a column without a name of its own, named here so the job and the release can refer to it: column 1 (no name in the header) is read as "column_1".',
    );
  });

  it('a repeated CSV header name: the values stay in their columns', () => {
    const imported = readCsv(file('dup,dup,z\n1,2,3\n'), defaults);
    expect(imported.table.columns.map((c) => [c.name, c.dictionary[c.codes[0]!]])).toEqual([
      ['dup', '1'],
      ['dup_2', '2'],
      ['z', '3'],
    ]);
    expect(imported.renamedColumns).toEqual([{ column: 2, from: 'dup', to: 'dup_2' }]);
    expect(readCsv(file('a,b\n1,2\n'), defaults).renamedColumns).toBeUndefined();
  });

  it('a sheet follows the same rule', () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[null, 'x', 'x'], [0, 1, 2]]), 'Data');
    const path = file(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer, '.xlsx');
    const imported = readXlsx(path, defaults);
    expect(imported.table.columns.map((c) => c.name)).toEqual(['column_1', 'x', 'x_2']);
    expect(imported.renamedColumns).toEqual([
      { column: 1, from: '', to: 'column_1' },
      { column: 3, from: 'x', to: 'x_2' },
    ]);
  });
});

describe('a header of many repeated names', () => {
  it('is named in time proportional to its length (repeats beside the names they would take)', () => {
    // 10,000 "a" beside "a_2" … "a_10001": each repeat counted its suffix from 2 again (seconds here,
    // minutes for a 340 KB header).
    const header = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? 'a' : `a_${i / 2 + 2}`));
    const started = performance.now();
    const { names } = nameColumns(header);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(new Set(names).size).toBe(header.length);
    expect(names.slice(0, 4)).toEqual(['a_2', 'a', 'a_3', 'a_10002']);
    expect(nameColumns(['a', 'a', 'a_2', 'a']).names).toEqual(['a', 'a_3', 'a_2', 'a_4']);
  });
});
