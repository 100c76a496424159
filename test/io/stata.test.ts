import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import type { ImportedTable } from '../../src/io/input/import-types.js';

/** Written by R's haven (ReadStat) from test/fixtures/stata/make-fixtures.R: the same cases in five releases. */
const fixture = (release: number): string => join('test/fixtures/stata', `people-${release}.dta`);

function rows(imported: ImportedTable): Record<string, string>[] {
  const { table } = imported;
  return Array.from({ length: table.rowCount }, (_, r) => Object.fromEntries(table.columns.map((c) => [c.name, c.dictionary[c.codes[r]!]!])));
}

const EXPECTED = [
  { id: '1', occupation: 'Adm-clerical', age: '34', region: 'Zürich', visit: '2024-01-15', seen: '2024-01-15T08:30:00', income: '4250.5' },
  { id: '2', occupation: 'Managers', age: '51', region: 'Genève', visit: '2024-02-29', seen: '2024-02-29T17:05:10', income: '' },
  { id: '3', occupation: 'Adm-clerical', age: '', region: 'Zürich', visit: '1999-12-31', seen: '1999-12-31T23:59:59', income: '3100' },
  { id: '4', occupation: 'Professionals', age: '28', region: 'Basel', visit: '2020-07-04', seen: '2020-07-04T00:00:00', income: '2800.75' },
  { id: '5', occupation: '', age: '45', region: 'Bern', visit: '2023-03-01', seen: '2023-03-01T12:00:00', income: '0.1' },
];
const NOTES = ['first', 'second', 'long '.repeat(600), 'fourth', 'fifth'];

describe('Stata data files (.dta, releases 114, 115, 117, 118, 119)', () => {
  for (const release of [114, 115, 117, 118, 119]) {
    it(`release ${release}: value labels as values, missing values missing, %td and %tc as ISO dates${release >= 118 ? ', strLs whole' : ''}`, () => {
      const imported = readTable(fixture(release), { missing: [''], onBadRow: 'error' });
      expect(imported.format).toBe('dta');
      const expected = release >= 118 ? EXPECTED.map((row, i) => ({ ...row, note: NOTES[i]! })) : EXPECTED;
      expect(rows(imported)).toEqual(expected);
      const variables = new Map((imported.variables ?? []).map((v) => [v.name, v]));
      expect(variables.get('occupation')).toMatchObject({ label: 'Occupation (ISCO major group)', declaredMissing: 1 });
      expect([...variables.get('occupation')!.valueLabels].sort((a, b) => a.code.localeCompare(b.code))).toEqual([
        { code: '1', label: 'Managers' },
        { code: '2', label: 'Professionals' },
        { code: '3', label: 'Adm-clerical' },
      ]);
      expect(variables.get('age')).toMatchObject({ label: 'Age in years', declaredMissing: 1 });
      expect(variables.get('visit')!.dates).toBe('date');
      expect(variables.get('seen')!.dates).toBe('datetime');
      expect(imported.table.columns.find((c) => c.name === 'visit')!.type).toBe('date');
    });
  }

  it('before release 118, text in the code page Stata itself writes (Windows-1252) reads as well as UTF-8', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dta-'));
    const bytes = Buffer.from(readFileSync(fixture(114)));
    const utf8 = Buffer.from('Zürich', 'utf8');
    const cp1252 = Buffer.concat([Buffer.from('Zürich', 'latin1'), Buffer.alloc(1)]);
    for (let at = bytes.indexOf(utf8); at >= 0; at = bytes.indexOf(utf8, at + 1)) cp1252.copy(bytes, at);
    writeFileSync(join(dir, 'stata12.dta'), bytes);
    const regions = rows(readTable(join(dir, 'stata12.dta'), { missing: [''], onBadRow: 'error' })).map((r) => r['region']);
    expect(regions).toEqual(['Zürich', 'Genève', 'Zürich', 'Basel', 'Bern']);
  });

  it('a .dta with another name is still read as Stata; a truncated one is refused naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dta-'));
    const bytes = readFileSync(fixture(118));
    writeFileSync(join(dir, 'export.bin'), bytes);
    expect(readTable(join(dir, 'export.bin'), { missing: [''], onBadRow: 'error' }).table.rowCount).toBe(5);
    writeFileSync(join(dir, 'cut.dta'), bytes.subarray(0, 400));
    expect(() => readTable(join(dir, 'cut.dta'), { missing: [''], onBadRow: 'error' })).toThrow(/cut\.dta: .*(truncated|ends early)/);
    const old = readFileSync(fixture(114));
    writeFileSync(join(dir, 'cut-old.dta'), old.subarray(0, 300));
    expect(() => readTable(join(dir, 'cut-old.dta'), { missing: [''], onBadRow: 'error' })).toThrow(/cut-old\.dta: .*(truncated|ends early)/);
  });

  it('a %td value no calendar date can be stays the number the file holds, the rest of the file reads; periods read as periods', () => {
    const values = rows(readTable('test/fixtures/stata/dates-out-of-range.dta', { missing: [''], onBadRow: 'error' }));
    expect(values.map((r) => r['dd'])).toEqual(['1960-01-02', '1000000000000']);
    // Periods as people write them: %tm months, %tw Stata weeks (52 a year).
    expect(values.map((r) => r['tm'])).toEqual(['2020-01', '2020-02']);
    expect(values.map((r) => r['tw'])).toEqual(['2017w37', '2017w38']);
  });
});
