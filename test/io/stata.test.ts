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

/** A Stata 118 file of one strL variable whose `rows` cells all show one strL of `length` bytes (crafted: a 4 MB file). */
function oneStrlEverywhere(rows: number, length: number): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  const put = (b: Buffer): void => void (parts.push(b), (size += b.length));
  const text = (t: string): void => put(Buffer.from(t, 'latin1'));
  const int = (bytes: number, v: number): void => {
    const b = Buffer.alloc(bytes);
    if (bytes === 8) b.writeBigUInt64LE(BigInt(v));
    else b.writeUIntLE(v, 0, bytes);
    put(b);
  };
  const fixed = (t: string, n: number): void => {
    const b = Buffer.alloc(n);
    b.write(t, 'latin1');
    put(b);
  };
  const map = new Array<number>(14).fill(0);
  text('<stata_dta><header><release>118</release><byteorder>LSF</byteorder><K>');
  int(2, 1);
  text('</K><N>');
  int(8, rows);
  text('</N><label>');
  int(2, 0);
  text('</label><timestamp>');
  put(Buffer.from([0]));
  text('</timestamp></header>');
  map[1] = size;
  text('<map>');
  const mapAt = size;
  for (let i = 0; i < 14; i++) int(8, 0);
  text('</map>');
  const section = (k: number, body: () => void): void => {
    map[k] = size;
    body();
  };
  section(2, () => (text('<variable_types>'), int(2, 32768), text('</variable_types>')));
  section(3, () => (text('<varnames>'), fixed('s', 129), text('</varnames>')));
  section(4, () => (text('<sortlist>'), int(2, 0), int(2, 0), text('</sortlist>')));
  section(5, () => (text('<formats>'), fixed('%9s', 57), text('</formats>')));
  section(6, () => (text('<value_label_names>'), fixed('', 129), text('</value_label_names>')));
  section(7, () => (text('<variable_labels>'), fixed('', 321), text('</variable_labels>')));
  section(8, () => text('<characteristics></characteristics>'));
  section(9, () => {
    text('<data>');
    // Every cell: variable 1, observation 1.
    const data = Buffer.alloc(8 * rows);
    for (let r = 0; r < rows; r++) {
      data.writeUInt16LE(1, 8 * r);
      data.writeUIntLE(1, 8 * r + 2, 6);
    }
    put(data);
    text('</data>');
  });
  section(10, () => (text('<strls>GSO'), int(4, 1), int(8, 1), put(Buffer.from([129])), int(4, length), put(Buffer.alloc(length, 0x61)), text('</strls>')));
  section(11, () => text('<value_labels></value_labels>'));
  section(12, () => text('</stata_dta>'));
  map[13] = size;
  const file = Buffer.concat(parts);
  map.forEach((v, i) => file.writeBigUInt64LE(BigInt(v), mapAt + 8 * i));
  return file;
}

describe('Stata data files (.dta, releases 114, 115, 117, 118, 119)', () => {
  it('a strL that every cell shows is decoded once, not once per cell (a 4 MB file took 9 s)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-strl-'));
    writeFileSync(join(dir, 'strl.dta'), oneStrlEverywhere(2000, 4_000_000));
    const started = performance.now();
    const imported = readTable(join(dir, 'strl.dta'), { missing: [''], onBadRow: 'error' });
    expect(imported.table.rowCount).toBe(2000);
    expect(imported.table.columns[0]!.dictionary).toEqual(['', 'a'.repeat(4_000_000)]);
    // Measured 0.2 s; decoded per cell it took 9 s.
    expect(performance.now() - started).toBeLessThan(3000);
  });

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
